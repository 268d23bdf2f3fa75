import { randomBytes } from 'node:crypto';
import { ledger } from '../../src/modules/ledger/index.ts';
import { topupJournal } from '../../src/modules/wallet/journals.ts';
import { newId } from '../../src/platform/ids.ts';
import type { PartnerSetup, TestPlatform } from '../helpers/harness.ts';
import { vi } from 'vitest';
import { checkerToken, HOUR, settleSale, vendorPayee, runPayouts } from '../payouts/helpers.ts';

export const PAYSTACK_HEADER = 'type,reference,amount,fees,status,paid_at,settlement_id';

/** A top-up the gateway confirmed at `at`, credited as the wallet credits one (its row and its journal); answers its reference. */
export async function creditedTopup(
  p: TestPlatform,
  s: PartnerSetup,
  gateway: string,
  pesewas: number,
  at: Date,
): Promise<string> {
  const id = newId('top');
  const reference = `serviceD_WA${randomBytes(8).toString('hex')}`;
  const db = p.app.platform.db;
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into wallet_topups (id, partner_id, app_id, client_reference, amount_pesewas, gateway, status, credited_pesewas, created_at, credited_at)
       values ($1, $2, $3, $4, $5, $6, 'credited', $5, $7, $7)`,
      [id, s.partnerId, s.appId, reference, pesewas, gateway, at],
    );
    await ledger.postJournal(tx, topupJournal(s.partnerId, id, gateway, pesewas), at);
  });
  return reference;
}

export const ghs = (pesewas: number) => (pesewas / 100).toFixed(2);

/** Approves every settlement waiting for approval, as a second finance operator (the tests import with the admin token); answers how many. */
export async function approveSettlements(p: TestPlatform): Promise<number> {
  const waiting = await p.admin('GET', '/reconciliation/settlements?status=proposed');
  const token = await checkerToken(p);
  for (const s of waiting.body.data) {
    const approved = await p.admin(
      'POST',
      `/reconciliation/settlements/${s.settlement_id}/approve`,
      undefined,
      token,
    );
    if (approved.status !== 200) throw new Error(`approve: ${JSON.stringify(approved.body)}`);
  }
  return waiting.body.data.length;
}

export const STATEMENT_HEADER =
  'reference,transfer_code,amount,fee_charged,currency,status,updated_at';

/** A transfer statement's line as Paystack's export shows it: our reference in lower case, GHS amounts. */
export const statementLine = (
  reference: string,
  pesewas: number,
  feePesewas: number,
  status: string,
  day: string,
) =>
  `${reference.toLowerCase()},TRF_${reference.slice(-8).toLowerCase()},${ghs(pesewas)},${ghs(feePesewas)},GHS,${status},${day}T10:00:00Z`;

/**
 * A new vendor owed `pesewas` since before the hold, paid by a payout run (through the platform's
 * transfer provider, whose knobs decide how it ends); answers the payout once it is no longer open.
 */
export async function paidPayout(
  p: TestPlatform,
  pesewas: number,
  now: number,
): Promise<{ id: string; status: string; fee_pesewas: number | null; payee: string }> {
  const v = await vendorPayee(p);
  await settleSale(p, v.account, pesewas, now - 30 * HOUR);
  const started = await runPayouts(p);
  if (started.status !== 202) throw new Error(`payout run: ${JSON.stringify(started.body)}`);
  return vi.waitFor(
    async () => {
      const [payout] = (await p.admin('GET', `/payouts?payee=vendor:${v.id}`)).body.data;
      if (!payout || ['created', 'sending', 'pending'].includes(payout.status))
        throw new Error('the payout is still open');
      return payout;
    },
    { timeout: 10_000, interval: 50 },
  );
}
