import { pesewasToGhs } from '../../platform/money.ts';
import type { EntryRow } from '../ledger/index.ts';
import type { TopupCheck } from './service.ts';

/** wallet.topup.verify's `data`: `credited` is true for credited and already_credited alike. */
export function topupCheckView(check: TopupCheck) {
  if (check.state === 'pending')
    return {
      credited: false as const,
      state: check.state,
      verification_status: check.gatewayStatus,
    };
  return {
    credited: true as const,
    state: check.state,
    amount_ghs: pesewasToGhs(check.creditedPesewas),
    balance_ghs: pesewasToGhs(check.balancePesewas),
  };
}

/** wallet.topup.initiate's `data`. */
export function initiatedView(t: {
  checkoutUrl: string;
  clientReference: string;
  amountPesewas: number;
}) {
  return {
    checkout_url: t.checkoutUrl,
    client_reference: t.clientReference,
    amount_ghs: pesewasToGhs(t.amountPesewas),
  };
}

/** The operator's view of a wallet: balance, credit limit and the latest entries. */
export function walletLedgerView(
  partnerId: string,
  creditLimitPesewas: number,
  { balancePesewas, entries }: { balancePesewas: number; entries: readonly EntryRow[] },
) {
  return {
    partner_id: partnerId,
    balance_ghs: pesewasToGhs(balancePesewas),
    credit_limit_ghs: pesewasToGhs(creditLimitPesewas),
    entries: entries.map((e) => ({
      journal_id: e.journal_id,
      kind: e.kind,
      subject_id: e.subject_id,
      memo: e.memo,
      amount_ghs: pesewasToGhs(e.amount_pesewas),
      created_at: e.created_at.toISOString(),
    })),
  };
}
