import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersRepository } from '../../../src/modules/delivery/orders/repository.ts';
import { migrate } from '../../../src/platform/db/migrate.ts';
import { openPglite } from '../../../src/platform/db/pglite.ts';
import { openPostgres } from '../../../src/platform/db/postgres.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { onPostgres } from '../../helpers/harness.ts';
import { type PlanNode, planOf as explainedPlan } from '../../helpers/plans.ts';

// The orders lists of the console and the dashboard read a page from an index whatever the table's
// size: no sort of every matching row, no scan of the table. Checked on the repository's own SQL
// through the planner, on a table big enough that the planner prefers the index when it has one.

let db: DriverDb;
let schema: string | undefined;
const planOf = (run: Parameters<typeof explainedPlan>[1], options?: { generic?: boolean }) =>
  explainedPlan(db, run, options);

function expectIndexPage(plan: PlanNode[]): void {
  const kinds = plan.map((n) => n['Node Type']);
  expect(kinds).not.toContain('Sort');
  expect(kinds).not.toContain('Incremental Sort');
  expect(
    plan.filter(
      (n) => n['Relation Name'] === 'delivery_orders' && /Seq Scan|Bitmap/.test(n['Node Type']),
    ),
  ).toEqual([]);
}

beforeAll(async () => {
  schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  db = onPostgres
    ? await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 1, schema })
    : await openPglite(undefined);
  await migrate(db);
  // 30 partners' orders over 20,000 seconds; foreign keys off for the seed (the rows only need to exist).
  await db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, customer_name, customer_phone, delivery_address,
         delivery_city, delivery_region, item, pickup_contact_person, pickup_contact_phone, payer, payment_status, pickup_date, estimated_delivery,
         tracking_token, created_at)
       select 'dlv_seed' || g, 'app_seed' || (g % 30), 'ptn_seed' || (g % 30), 'production', 'ref' || g,
              (array['placed', 'accepted', 'delivered', 'delivered', 'delivered', 'failed'])[1 + g % 6],
              'Ama', '+233240000000', 'addr', 'Accra', 'Greater Accra', 'box', 'Kofi', '+233240000001', 'partner', 'wallet_debited',
              current_date, now(), 'tok' || g, now() - make_interval(secs => g)
         from generate_series(1, 20000) g`,
    );
  });
  await db.query(
    `insert into delivery_order_events (order_id, version, status, at)
     select 'dlv_seed' || g, v, (array['accepted', 'pickedUp', 'in_transit', 'delivered'])[v - 1], now()
       from generate_series(1, 20000) g, generate_series(2, 5) v`,
  );
  await db.query('analyze delivery_orders');
  await db.query('analyze delivery_order_events');
}, 120_000);

afterAll(async () => {
  await db?.close();
  if (schema) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
});

describe('orders lists read one page from an index', () => {
  it('the console board, every partner, newest first', async () => {
    expectIndexPage(await planOf((q) => ordersRepository.listAll(q, {}, 50)));
  });

  it('the console board filtered by a status', async () => {
    expectIndexPage(await planOf((q) => ordersRepository.listAll(q, { status: 'failed' }, 50)));
  });

  it('the console board filtered by a status, in the plan kept for any parameters', async () => {
    // With every filter in one statement, `($n is null or status = $n)` made this plan walk the
    // whole board index: 0.9 s at a million orders for a status no order has.
    const plan = await planOf((q) => ordersRepository.listAll(q, { status: 'cancelled' }, 50), {
      generic: true,
    });
    expectIndexPage(plan);
    expect(plan.map((n) => n['Index Name']).filter(Boolean)).toEqual([
      'delivery_orders_status_board_idx',
    ]);
  });

  it("the console board's next page, after an order", async () => {
    expectIndexPage(
      await planOf((q) => ordersRepository.listAll(q, { afterId: 'dlv_seed907' }, 50)),
    );
  });

  it('the console board of one partner', async () => {
    const plan = await planOf((q) => ordersRepository.listAll(q, { partnerId: 'ptn_seed7' }, 50));
    expectIndexPage(plan);
    expect(plan.map((n) => n['Index Name']).filter(Boolean)).toEqual([
      'delivery_orders_partner_list_idx',
    ]);
  });

  it('the console board of one partner, filtered by a status', async () => {
    expectIndexPage(
      await planOf((q) =>
        ordersRepository.listAll(q, { partnerId: 'ptn_seed7', status: 'cancelled' }, 50),
      ),
    );
  });

  it("a partner's orders filtered by a status none of them has", async () => {
    expectIndexPage(
      await planOf((q) =>
        ordersRepository.listForPartner(q, 'ptn_seed7', { status: 'cancelled' }, 50),
      ),
    );
  });

  it("a partner's next page, after an order", async () => {
    expectIndexPage(
      await planOf((q) =>
        ordersRepository.listForPartner(q, 'ptn_seed7', { afterId: 'dlv_seed907' }, 50),
      ),
    );
  });

  it("a partner's reference search filters the partner's list index, reading only the page's rows", async () => {
    // As autovacuum would have: an index-only scan counts on the visibility map it sets.
    await db.query('vacuum analyze delivery_orders');
    const plan = await planOf((q) =>
      ordersRepository.listForPartner(q, 'ptn_seed7', { reference: 'ref12' }, 50),
    );
    expectIndexPage(plan);
    const scans = plan.filter((n) => n['Relation Name'] === 'delivery_orders');
    expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([
      ['Index Only Scan', 'delivery_orders_partner_list_idx'],
      ['Index Scan', 'delivery_orders_pkey'],
    ]);
  });
});

describe("the console board's reference search across every partner", () => {
  const indexes = (plan: PlanNode[]) => plan.map((n) => n['Index Name']).filter(Boolean);

  it('finds the term anywhere through the trigram index, not by walking every order', async () => {
    const plan = await planOf((q) => ordersRepository.listAll(q, { reference: 'f1234' }, 50));
    expect(plan.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(indexes(plan)).toEqual(['delivery_orders_reference_trgm_idx']);
  });

  it('finds a term without a trigram of its own (two characters) at the start through the same index', async () => {
    // Anywhere, `12` has no trigram: the plan would walk the board index through every order.
    const plan = await planOf((q) => ordersRepository.listAll(q, { reference: '12' }, 50));
    expect(indexes(plan)).toEqual(['delivery_orders_reference_trgm_idx']);
  });

  it("leaves a partner's search to the partner's list index, even for a term few orders hold", async () => {
    // Real references share a prefix whose trigrams every order holds: intersecting those lists
    // costs more than filtering the partner's entries.
    const plan = await planOf((q) =>
      ordersRepository.listForPartner(q, 'ptn_seed7', { reference: 'f19987' }, 50),
    );
    expect(indexes(plan)).toEqual(['delivery_orders_partner_list_idx', 'delivery_orders_pkey']);
    const board = await planOf((q) =>
      ordersRepository.listAll(q, { partnerId: 'ptn_seed7', reference: 'f19987' }, 50),
    );
    // Either index of the partner's entries: the plan fetches the entries of the partner and filters
    // them; since migration 072 widened the list index the planner may pick the narrower status one.
    expect(indexes(board)).toEqual([
      expect.stringMatching(/^delivery_orders_partner_(list|status)_idx$/),
    ]);
  });
});

describe("a deleted test clock's open orders", () => {
  it('are found through the clock index, not by reading every order', async () => {
    const plan = await planOf((q) => ordersRepository.openOnClock(q, 'clk_none'));
    expect(plan.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(plan.map((n) => n['Index Name']).filter(Boolean)).toEqual([
      'delivery_orders_test_clock_idx',
    ]);
  });
});
