import { expect } from 'vitest';
import { createPartner, type PartnerSetup, type TestPlatform } from '../helpers/harness.ts';

export const WALLET_SCOPES = [
  'delivery:read',
  'delivery:write',
  'delivery:wallet:topup',
  'delivery:wallet:spend',
];

export function walletPartner(p: TestPlatform): Promise<PartnerSetup> {
  return createPartner(p, { environment: 'production', scopes: WALLET_SCOPES });
}

export async function initiate(
  s: PartnerSetup,
  amount_ghs: number,
): Promise<{ checkout_url: string; client_reference: string }> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
    body: { amount_ghs },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/**
 * The buyer's click on the sandbox checkout page, as its JSON form; `reach` is the platform's
 * fetch when the page is served in process (`client.options.fetch`).
 */
export async function decide(
  checkoutUrl: string,
  action: 'pay' | 'decline',
  reach: typeof fetch = fetch,
): Promise<number> {
  const res = await reach(`${checkoutUrl}/${action}`, {
    method: 'POST',
    headers: { accept: 'application/json' },
  });
  return res.status;
}

export const verify = (s: PartnerSetup, client_reference: string) =>
  s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.verify', {
    body: { client_reference },
  });

export async function balance(s: PartnerSetup): Promise<number> {
  const res = await s.client.send<any>('GET', '/api/v1/delivery/wallet.balance');
  expect(res.status).toBe(200);
  return res.body.data.balance_ghs;
}

/** A paid and verified top-up. */
export async function topUp(s: PartnerSetup, amount: number): Promise<void> {
  const t = await initiate(s, amount);
  expect(await decide(t.checkout_url, 'pay', s.client.options.fetch)).toBe(200);
  const v = await verify(s, t.client_reference);
  expect(v.body.data.credited).toBe(true);
}

/** Ledger invariants straight from the database: every journal balances, cached balances match entries. */
export async function expectLedgerConsistent(p: TestPlatform): Promise<void> {
  const db = p.app.platform.db;
  const unbalanced = await db.query(
    'select journal_id, sum(amount_pesewas)::bigint as s from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
  );
  expect(unbalanced).toEqual([]);
  const mismatched = await db.query(
    `select w.partner_id, w.balance_pesewas, coalesce(sum(e.amount_pesewas), 0)::bigint as entries
       from wallets w left join ledger_entries e on e.account = 'wallet:' || w.partner_id
      group by w.partner_id, w.balance_pesewas having w.balance_pesewas <> coalesce(sum(e.amount_pesewas), 0)`,
  );
  expect(mismatched).toEqual([]);
}
