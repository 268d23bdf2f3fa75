import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger, type Journal } from '../../../src/modules/ledger/index.ts';
import {
  payoutCreatedJournal,
  payoutPaidJournal,
  payoutReturnedJournal,
} from '../../../src/modules/payouts/domain/journals.ts';
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts';
import { openPglite, type PgliteDb } from '../../../src/platform/db/pglite.ts';
import { openPostgres } from '../../../src/platform/db/postgres.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { newId } from '../../../src/platform/ids.ts';
import { onPostgres, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { runPayouts } from '../../payouts/helpers.ts';

// Migration 044 on a database built before it: prepaid sales settled at payment under the old rule,
// some paid out already. Their shares move back into sales_undelivered (a paid-out share onto the
// payee's receivable), nothing else moves, and the books still balance; the platform then earns them
// at delivery or owes them back.

const DAY = 86_400_000;
const now = Date.now();
const partner = newId('ptn');
const app = newId('app');
const vendor = newId('ven');
const payable = `vendor_payable:${vendor}`;
const receivable = `vendor_receivable:${vendor}`;
const markup = `partner_markup_payable:${partner}`;

let db: DriverDb;
let schema: string | undefined;
let p: TestPlatform | undefined;

interface OldSale {
  id: string;
  order: string | null;
  total: number;
  vendorShare: number;
  commission: number;
  markup: number;
  journal: string;
}

const post = (journal: Journal, at: number) =>
  db.transaction((tx) => ledger.postJournal(tx, journal, new Date(at)));
const journalId = async (kind: string, subject: string) =>
  (
    await db.query<{ id: string }>(
      'select id from ledger_journals where kind = $1 and subject_id = $2',
      [kind, subject],
    )
  )[0]!.id;

async function deliveryOrder(status: string): Promise<string> {
  const id = newId('dlv');
  await db.query(
    `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, customer_name, customer_phone, delivery_address, delivery_city,
       delivery_region, item, pickup_contact_person, pickup_contact_phone, payer, payment_is_paid, payment_status, fee_pesewas, pickup_date, estimated_delivery, tracking_token)
     values ($1, $2, $3, 'production', $4, $5, 'Ama Mensah', '+233241234567', '12 Lagos Avenue', 'Accra', 'Greater Accra', '1 x Kente stole',
       'Efua Asante', '+233245550101', 'recipient', true, 'pending', 1500, current_date, now() + interval '1 day', $6)`,
    [id, app, partner, `safe-${id}`, status, randomBytes(12).toString('base64url')],
  );
  return id;
}

/** A sale as the code before 044 left it: prepaid, paid, settled at payment to the payables (or cod, delivered). */
async function oldSale(opts: {
  method: 'online' | 'cod';
  delivery: string | null;
  subtotal: number;
}): Promise<OldSale> {
  const id = newId('sale');
  const order = opts.delivery ? await deliveryOrder(opts.delivery) : null;
  const commission = opts.subtotal / 10;
  const m = opts.method === 'online' ? 500 : 0;
  const total = opts.subtotal + 1500 + m;
  const settledAt = new Date(now - 3 * DAY);
  await db.query(
    `insert into sales (id, app_id, partner_id, environment, reference, client_reference, vendor_id, payment_method, state, payment_status, buyer_name, buyer_phone,
       delivery_address, quote_lat, quote_lng, quote_source, subtotal_pesewas, commission_pesewas, delivery_fee_pesewas, markup_pesewas, total_pesewas, gateway,
       delivery_reference, delivery_order_id, gateway_amount_pesewas, settled_at, created_at, updated_at)
     values ($1, $2, $3, 'production', $4, $5, $6, $7, 'confirmed', $8, 'Ama Mensah', '+233241234567', '12 Lagos Avenue', 5.6, -0.16, 'coordinates',
       $9, $10, 1500, $11, $12, $13, $14, $15, $16, $17, $17, $17)`,
    [
      id,
      app,
      partner,
      `SC-${id.slice(-10)}`,
      `serviceS_SC${randomBytes(8).toString('hex')}`,
      vendor,
      opts.method,
      opts.method === 'online' ? 'paid' : 'collected',
      opts.subtotal,
      commission,
      m,
      total,
      opts.method === 'online' ? 'sandbox' : null,
      order ? `safe-${order}` : `safe-${id}`,
      order,
      opts.method === 'online' ? total : null,
      settledAt,
    ],
  );
  const shares = [
    { account: payable, amountPesewas: opts.subtotal - commission },
    { account: 'platform_commission', amountPesewas: commission },
    { account: 'delivery_revenue', amountPesewas: 1500 },
    ...(m > 0 ? [{ account: markup, amountPesewas: m }] : []),
  ];
  const source = opts.method === 'online' ? 'gateway_clearing:sandbox' : 'rider_cash_clearing';
  await post(
    {
      kind: 'sale_settlement',
      subjectId: id,
      memo: 'old settlement',
      entries: [{ account: source, amountPesewas: -total }, ...shares],
    },
    settledAt.getTime(),
  );
  return {
    id,
    order,
    total,
    vendorShare: opts.subtotal - commission,
    commission,
    markup: m,
    journal: await journalId('sale_settlement', id),
  };
}

/** A payout of the vendor covering one settlement's vendor entry, left paid (live line) or failed (released). */
async function payoutOf(sale: OldSale, outcome: 'paid' | 'failed'): Promise<void> {
  const run = newId('prun');
  const id = newId('pout');
  const at = now - 2 * DAY;
  await db.query(
    `insert into payout_runs (id, trigger, started_by, cutoff, created_at) values ($1, 'manual', 'test', $2, $2)`,
    [run, new Date(at)],
  );
  await db.query(
    `insert into payouts (id, run_id, payee, account, amount_pesewas, provider, destination, status, created_by, created_at, updated_at, destination_version)
     values ($1, $2, $3, $4, $5, 'fake', '{"kind":"mobile_money","network":"mtn","number":"0241234567","name":"Kofi"}', $6, 'test', $7, $7, 1)`,
    [id, run, `vendor:${vendor}`, payable, sale.vendorShare, outcome, new Date(at)],
  );
  await db.query(
    `insert into payout_lines (payout_id, payee, journal_id, kind, subject_id, amount_pesewas, released) values ($1, $2, $3, 'sale_settlement', $4, $5, $6)`,
    [id, `vendor:${vendor}`, sale.journal, sale.id, sale.vendorShare, outcome === 'failed'],
  );
  const split = { payable, fromPayable: sale.vendorShare, receivable, deducted: 0, fee: 0 };
  await post(payoutCreatedJournal(id, split), at);
  await post(
    outcome === 'paid'
      ? payoutPaidJournal(id, 'fake', sale.vendorShare)
      : payoutReturnedJournal(id, split, { paid: false, provider: 'fake' }),
    at + 1000,
  );
}

const balance = async (account: string) =>
  Number(
    (
      await db.query<{ n: string }>(
        'select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries where account = $1',
        [account],
      )
    )[0]!.n,
  );
const legs = async (kind: string, subject: string) =>
  Object.fromEntries(
    (
      await db.query<{ account: string; amount_pesewas: string }>(
        'select e.account, e.amount_pesewas from ledger_entries e join ledger_journals j on j.id = e.journal_id where j.kind = $1 and j.subject_id = $2',
        [kind, subject],
      )
    ).map((r) => [r.account, Number(r.amount_pesewas)]),
  );
const earnedAt = async (saleId: string) =>
  (
    await db.query<{ earned_at: Date | null }>('select earned_at from sales where id = $1', [
      saleId,
    ])
  )[0]!.earned_at;

let delivered: OldSale;
let inTransit: OldSale;
let paidOut: OldSale;
let paidOutFailed: OldSale;
let cod: OldSale;

beforeAll(async () => {
  schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  db = onPostgres
    ? await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 2, schema })
    : await openPglite(undefined);
  expect(
    await migrate(
      db,
      readMigrations().filter((m) => m.version <= 43),
    ),
  ).toContain(43);
  await db.query(`insert into partners (id, name) values ($1, 'Migrated partner')`, [partner]);
  await db.query(
    `insert into apps (id, partner_id, name, webhook_secret_sealed) values ($1, $2, 'Shop', 'unused')`,
    [app, partner],
  );
  await db.query(
    `insert into vendors (id, name, syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng)
     values ($1, 'Makola Kente House', true, 1000, 'Efua Asante', '+233245550101', 'Makola Market, Accra', 5.556, -0.179)`,
    [vendor],
  );
  delivered = await oldSale({ method: 'online', delivery: 'delivered', subtotal: 10_000 });
  inTransit = await oldSale({ method: 'online', delivery: 'in_transit', subtotal: 20_000 });
  paidOut = await oldSale({ method: 'online', delivery: 'pickedUp', subtotal: 30_000 });
  paidOutFailed = await oldSale({ method: 'online', delivery: null, subtotal: 40_000 });
  cod = await oldSale({ method: 'cod', delivery: 'delivered', subtotal: 50_000 });
  await payoutOf(paidOut, 'paid');
  await payoutOf(paidOutFailed, 'failed');
  expect(await migrate(db)).toEqual(
    readMigrations()
      .filter((m) => m.version > 43)
      .map((m) => m.version),
  );
}, 120_000);

afterAll(async () => {
  await p?.close();
  await db?.close();
  if (schema) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
});

describe('migration 044 on a database built before it', () => {
  it('moves the shares of paid, undelivered prepaid sales back into sales_undelivered, a paid-out share onto the receivable', async () => {
    const shares = (s: OldSale, vendorAccount: string) => ({
      [vendorAccount]: -s.vendorShare,
      platform_commission: -s.commission,
      delivery_revenue: -1500,
      [markup]: -s.markup,
      sales_undelivered: s.total,
    });
    expect(await legs('sale_settlement_deferred', inTransit.id)).toEqual(
      shares(inTransit, payable),
    );
    // Covered by a paid payout: the vendor owes it back; the partner's unpaid markup comes off its payable.
    expect(await legs('sale_settlement_deferred', paidOut.id)).toEqual(shares(paidOut, receivable));
    // Its payout failed (the line released): the share is on the payable again, so it comes off the payable.
    expect(await legs('sale_settlement_deferred', paidOutFailed.id)).toEqual(
      shares(paidOutFailed, payable),
    );
    // Delivered sales keep their settlement and are earned at it.
    for (const s of [delivered, cod]) {
      expect(await legs('sale_settlement_deferred', s.id)).toEqual({});
      expect(await earnedAt(s.id)).toEqual(new Date(now - 3 * DAY));
    }
    for (const s of [inTransit, paidOut, paidOutFailed]) expect(await earnedAt(s.id)).toBeNull();
    const journal = (
      await db.query<{ id: string; created_at: Date }>(
        "select id, created_at from ledger_journals where kind = 'sale_settlement_deferred' and subject_id = $1",
        [inTransit.id],
      )
    )[0]!;
    expect(journal.id).toMatch(/^jrn_[0-9A-Z]{26}$/);
    expect(Math.abs(journal.created_at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('leaves every account truthful and the trial balance at zero', async () => {
    expect(await balance('sales_undelivered')).toBe(
      inTransit.total + paidOut.total + paidOutFailed.total,
    );
    expect(await balance(payable)).toBe(delivered.vendorShare + cod.vendorShare);
    expect(await balance(receivable)).toBe(-paidOut.vendorShare);
    expect(await balance(markup)).toBe(delivered.markup);
    expect(
      await db.query(
        'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
      ),
    ).toEqual([]);
    expect(
      Number(
        (
          await db.query<{ n: string }>(
            'select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries',
          )
        )[0]!.n,
      ),
    ).toBe(0);
  });

  it('then earns a migrated sale at delivery, owes another back when its delivery fails, and pays out only what was delivered', async () => {
    const template = onPostgres ? undefined : await (db as PgliteDb).dump();
    p = await startPlatform({
      socket: false,
      ...(schema ? { schema } : {}),
      ...(template ? { dbTemplate: template } : {}),
      env: { PAYOUT_HOLD_HOURS: '24' },
    });
    const pdb = p.app.platform.db;
    const q = async (account: string) =>
      Number(
        (
          await pdb.query<{ n: string }>(
            'select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries where account = $1',
            [account],
          )
        )[0]!.n,
      );
    for (const status of ['in_transit', 'delivered'])
      expect(
        (await p.admin('POST', `/delivery/orders/${paidOut.order}/status`, { status })).status,
      ).toBe(200);
    expect(
      (await p.admin('POST', `/delivery/orders/${inTransit.order}/status`, { status: 'cancelled' }))
        .status,
    ).toBe(200);
    const kinds = async (saleId: string) =>
      (
        await pdb.query<{ kind: string }>(
          'select kind from ledger_journals where subject_id = $1 order by created_at, id',
          [saleId],
        )
      ).map((r) => r.kind);
    expect(await kinds(paidOut.id)).toEqual([
      'sale_settlement',
      'sale_settlement_deferred',
      'sale_settlement_at_delivery',
    ]);
    expect(await kinds(inTransit.id)).toEqual([
      'sale_settlement',
      'sale_settlement_deferred',
      'sale_undelivered_refund',
    ]);
    expect(await q('sales_undelivered')).toBe(paidOutFailed.total);
    expect(await q('sale_refunds_payable')).toBe(inTransit.total);
    // The vendor was paid for paidOut before its delivery: delivered now, it owes nothing back on net.
    expect((await p.admin('GET', `/payees/vendor/${vendor}`)).body).toMatchObject({
      available_pesewas: delivered.vendorShare + cod.vendorShare - paidOut.vendorShare,
      pending_pesewas: paidOut.vendorShare,
      receivable_pesewas: paidOut.vendorShare,
    });
    // A run now pays what delivered sales earned past the hold, less what was paid before delivery:
    // no share of an undelivered sale, whose deferral (posted just now) is deducted at once.
    await pdb.query(
      `insert into payout_destinations (payee, vendor_id, kind, network, number, name, changed_at, changed_by)
       values ($1, $2, 'mobile_money', 'mtn', '0241234567', 'Kofi Boateng', now() - interval '30 days', 'test')`,
      [`vendor:${vendor}`, vendor],
    );
    const run = await runPayouts(p);
    const [payout] = (
      await p.admin('GET', `/payouts?run_id=${run.body.run_id}&payee=vendor:${vendor}`)
    ).body.data;
    expect(payout).toMatchObject({
      amount_pesewas: delivered.vendorShare + cod.vendorShare - paidOut.vendorShare,
      status: 'paid',
    });
    expect((await p.admin('GET', `/payees/vendor/${vendor}`)).body).toMatchObject({
      available_pesewas: 0,
      pending_pesewas: paidOut.vendorShare,
      receivable_pesewas: 0,
    });
    expect(
      await pdb.query(
        'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
      ),
    ).toEqual([]);
    expect(
      Number(
        (
          await pdb.query<{ n: string }>(
            'select coalesce(sum(amount_pesewas), 0)::bigint as n from ledger_entries',
          )
        )[0]!.n,
      ),
    ).toBe(0);
  });
});
