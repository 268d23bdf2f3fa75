import {
  assertBalanced,
  partnerMarkupPayable,
  PAYOUTS_IN_TRANSIT,
  positive,
  TRANSFER_FEES,
  transferClearing,
  vendorPayable,
  type Journal,
} from '../../ledger/index.ts';
import type { PayeeKind } from './destinations.ts';

/** The payable account a payee is paid from. */
export const payableAccount = (kind: PayeeKind, id: string) => (kind === 'vendor' ? vendorPayable(id) : partnerMarkupPayable(id));

/** Journal kinds this module posts on payable accounts: never themselves remittance lines. */
export const PAYOUT_KINDS = ['payout_created', 'payout_returned'] as const;
/** Every journal kind a payout posts (its subject is the payout's id). */
export const PAYOUT_JOURNAL_KINDS = ['payout_created', 'payout_paid', 'payout_fee', 'payout_returned'] as const;

const move = (kind: string, payoutId: string, memo: string, from: string, to: string, amount: number): Journal =>
  assertBalanced({ kind, subjectId: payoutId, memo, entries: [{ account: from, amountPesewas: -positive(amount) }, { account: to, amountPesewas: amount }] });

/** A payout is created: the payee's payable is debited, the money is in transit. */
export const payoutCreatedJournal = (payoutId: string, account: string, amount: number) =>
  move('payout_created', payoutId, `payout from ${account}`, account, PAYOUTS_IN_TRANSIT, amount);

/** The provider confirmed the transfer: it left our balance at the provider. */
export const payoutPaidJournal = (payoutId: string, provider: string, amount: number) =>
  move('payout_paid', payoutId, `paid through ${provider}`, PAYOUTS_IN_TRANSIT, transferClearing(provider), amount);

/** What the provider charged for the transfer, an expense of its own. */
export const payoutFeeJournal = (payoutId: string, provider: string, fee: number) =>
  move('payout_fee', payoutId, `transfer fee charged by ${provider}`, TRANSFER_FEES, transferClearing(provider), fee);

/**
 * A payout failed (money still in transit) or was reversed after it was paid (money back at the
 * provider): owed to the payee again.
 */
export const payoutReturnedJournal = (payoutId: string, account: string, amount: number, from: { paid: boolean; provider: string }) =>
  move('payout_returned', payoutId, from.paid ? `reversed by ${from.provider}` : 'payout failed', from.paid ? transferClearing(from.provider) : PAYOUTS_IN_TRANSIT, account, amount);
