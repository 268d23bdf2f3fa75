import { expect } from 'vitest';
import {
  ledger,
  RIDER_CASH_CLEARING,
  SALE_REFUNDS_PAYABLE,
  SALES_UNDELIVERED,
} from '../../src/modules/ledger/index.ts';
import type { PayoutsModule } from '../../src/modules/payouts/index.ts';
import { newId } from '../../src/platform/ids.ts';
import { createVendor } from '../catalog/helpers.ts';
import { accountBalance } from '../helpers/ledger-read.ts';
import { operatorWithToken } from '../operators/helpers.ts';
import type { TestPlatform } from '../helpers/harness.ts';

export const HOUR = 3_600_000;

/** What a delivered cod sale posts to a payable (the catalog's sale_settlement, or another kind that credits a share), at `at`. */
export async function settleSale(
  p: TestPlatform,
  account: string,
  amount: number,
  at: number,
  kind = 'sale_settlement',
): Promise<string> {
  const saleId = newId('sale');
  await p.app.platform.db.transaction((tx) =>
    ledger.postJournal(
      tx,
      {
        kind,
        subjectId: saleId,
        memo: 'test sale',
        entries: [
          { account: RIDER_CASH_CLEARING, amountPesewas: -amount },
          { account, amountPesewas: amount },
        ],
      },
      new Date(at),
    ),
  );
  return saleId;
}

/** A share taken back off the payable after it was credited (a legacy sale_refund; migration 044 so moves an unpaid share of an undelivered sale). */
export async function returnSale(
  p: TestPlatform,
  account: string,
  amount: number,
  at: number,
  kind = 'sale_refund',
): Promise<void> {
  await p.app.platform.db.transaction((tx) =>
    ledger.postJournal(
      tx,
      {
        kind,
        subjectId: newId('sale'),
        memo: 'test return',
        entries: [
          { account: SALE_REFUNDS_PAYABLE, amountPesewas: amount },
          { account, amountPesewas: -amount },
        ],
      },
      new Date(at),
    ),
  );
}

/**
 * What migration 044 posts for a prepaid sale whose share a payout covered before the sale was
 * delivered: the share moves back for the undelivered sale, owed by the payee on its receivable.
 */
export async function owedBack(
  p: TestPlatform,
  receivable: string,
  amount: number,
  at = Date.now(),
): Promise<string> {
  const saleId = newId('sale');
  await p.app.platform.db.transaction((tx) =>
    ledger.postJournal(
      tx,
      {
        kind: 'sale_settlement_deferred',
        subjectId: saleId,
        memo: 'test: paid out before delivery',
        entries: [
          { account: receivable, amountPesewas: -amount },
          { account: SALES_UNDELIVERED, amountPesewas: amount },
        ],
      },
      new Date(at),
    ),
  );
  return saleId;
}

/** An account's balance in pesewas, through the ledger's read face. */
export const balanceOf = accountBalance;

export async function expectBalanced(p: TestPlatform): Promise<void> {
  expect(
    await p.app.platform.db.query(
      'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
    ),
  ).toEqual([]);
}

const checkers = new WeakMap<TestPlatform, Promise<string>>();

/** A finance operator's token, other than the admin token the tests propose with: the second operator. */
export function checkerToken(p: TestPlatform): Promise<string> {
  if (!checkers.has(p))
    checkers.set(
      p,
      operatorWithToken(p, ['finance']).then((o) => o.token),
    );
  return checkers.get(p)!;
}

/** Sets a payee's destination as operators must: proposed (with the admin token), then approved by a second finance operator. */
export async function setDestination(
  p: TestPlatform,
  kind: 'vendor' | 'partner' | 'courier',
  id: string,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const proposed = await p.admin('POST', `/payees/${kind}/${id}/destination`, body);
  if (proposed.status !== 202) throw new Error(`destination: ${JSON.stringify(proposed.body)}`);
  const approved = await p.admin(
    'POST',
    `/payees/${kind}/${id}/destination/approve`,
    { change_id: proposed.body.pending_change.change_id },
    await checkerToken(p),
  );
  if (approved.status !== 200) throw new Error(`approve: ${JSON.stringify(approved.body)}`);
  return { ...proposed.body, destination: approved.body.destination };
}

/** A vendor with a destination changed long enough ago to be out of its cooling period. */
export async function vendorPayee(
  p: TestPlatform,
  number = '024 123 4567',
): Promise<{ id: string; account: string }> {
  const id = (await createVendor(p)).vendor_id as string;
  await setDestination(p, 'vendor', id, {
    kind: 'mobile_money',
    network: 'mtn',
    number,
    name: 'Kofi Boateng',
  });
  await p.app.platform.db.query(
    "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
    [`vendor:${id}`],
  );
  return { id, account: `vendor_payable:${id}` };
}

export const payouts = (p: TestPlatform): PayoutsModule => p.app.platform.payouts;

/**
 * Starts a payout run as an operator does (answered 202 with its id at once), waits for this instance's
 * background worker to finish it, and answers the run resource (its progress and what it skipped).
 */
export async function runPayouts(
  p: TestPlatform,
  token?: string,
): Promise<{ status: number; body: Record<string, any> }> {
  const started = await p.admin('POST', '/payouts/runs', undefined, token);
  if (started.status !== 202) return started;
  expect(started.body).toMatchObject({
    run_id: expect.stringMatching(/^prun_/),
    status: 'creating',
  });
  await payouts(p).service.settle();
  const run = await p.admin('GET', `/payouts/runs/${started.body.run_id}`, undefined, token);
  expect(run.body.status).toBe('done');
  return { status: started.status, body: run.body };
}
