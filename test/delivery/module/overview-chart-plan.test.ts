import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersRepository } from '../../../src/modules/delivery/orders/repository.ts';
import { migrate } from '../../../src/platform/db/migrate.ts';
import { openPostgres } from '../../../src/platform/db/postgres.ts';
import type { DriverDb, Queryable } from '../../../src/platform/db/types.ts';
import { onPostgres } from '../../helpers/harness.ts';

// The dashboard's 30-day chart of one partner (dailyForPartner) costs its span's index entries, not
// a heap page and a timeline lookup per order (migration 072). Run, not only explained, in the plan
// PostgreSQL keeps for the prepared statement, with the buffers it touched counted.

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Heap Fetches'?: number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const literal = (v: unknown) => `'${String(v).replaceAll("'", "''")}'`;

/** 20,000 orders over 30 days, one in four the charted partner's, as a busy table interleaves them. */
const ORDERS = 20_000;
const PARTNER_ORDERS = ORDERS / 4;

describe.runIf(onPostgres)("the dashboard's 30-day chart of one partner", () => {
  let db: DriverDb;
  const schema = `t_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    db = await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 1, schema });
    await migrate(db);
    // Foreign keys off for the seed (the rows only need to exist). 14 in 20 delivered, 40 minutes on.
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, customer_name, customer_phone, delivery_address,
           delivery_city, delivery_region, item, pickup_contact_person, pickup_contact_phone, payer, payment_status, pickup_date, estimated_delivery,
           tracking_token, created_at, delivered_at)
         select 'dlv_seed' || g, 'app_seed' || (g % 4), 'ptn_seed' || (g % 4), 'production', 'ref' || g, s.status,
                'Ama', '+233240000000', 'addr', 'Accra', 'Greater Accra', 'box', 'Kofi', '+233240000001', 'partner', 'wallet_debited',
                current_date, now(), 'tok' || g, now() - make_interval(secs => g * 129),
                case when s.status = 'delivered' then now() - make_interval(secs => g * 129) + interval '40 minutes' end
           from generate_series(1, $1::int) g,
                lateral (select case when g % 20 < 14 then 'delivered' when g % 20 < 17 then 'placed' else 'failed' end as status) s`,
        [ORDERS],
      );
      await tx.query(
        `insert into delivery_order_events (order_id, version, status, at)
         select o.id, v, (array['accepted', 'pickedUp', 'in_transit', o.status])[v - 1],
                coalesce(o.delivered_at, o.created_at + interval '40 minutes') - (5 - v) * interval '5 minutes'
           from delivery_orders o, generate_series(2, 5) v where o.status <> 'placed'`,
      );
    });
    // As autovacuum would have: an index-only scan counts on the visibility map it sets.
    await db.query('vacuum analyze delivery_orders');
    await db.query('vacuum analyze delivery_order_events');
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });

  /** The chart's statement prepared, planned for any parameters and run under EXPLAIN ANALYZE. */
  async function chartPlan(today: string): Promise<PlanNode> {
    let plan: PlanNode | undefined;
    await db.transaction(async (tx) => {
      await tx.query('set local plan_cache_mode = force_generic_plan');
      const explaining = {
        ...tx,
        query: async <T>(sql: string, params: readonly unknown[] = []) => {
          await tx.query(`prepare chart as ${sql}`);
          const rows = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            `explain (analyze, buffers, format json) execute chart(${params.map(literal).join(', ')})`,
          );
          await tx.query('deallocate chart');
          plan = rows[0]!['QUERY PLAN'][0].Plan;
          return [] as T[];
        },
      } as Queryable;
      await ordersRepository.dailyForPartner(explaining, 'ptn_seed0', today, 30);
    });
    return plan!;
  }

  it("reads the partner's list index alone: no heap page, no timeline, few buffers", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const [delivered] = await db.query<{ n: number }>(
      `select count(*)::int as n from delivery_orders where partner_id = 'ptn_seed0' and delivered_at is not null`,
    );
    expect(delivered!.n).toBeGreaterThan(PARTNER_ORDERS / 2);

    const plan = await chartPlan(today);
    const all = nodes(plan);
    expect(all.filter((n) => n['Relation Name'] === 'delivery_order_events')).toEqual([]);
    const scans = all.filter((n) => n['Relation Name'] === 'delivery_orders');
    expect(scans.map((n) => [n['Node Type'], n['Index Name'], n['Heap Fetches']])).toEqual([
      ['Index Only Scan', 'delivery_orders_partner_list_idx', 0],
    ]);
    // The partner's 5,000 entries fill about 50 index pages; one page per order (the status from
    // the heap, the delivered move from the timeline) read over 10,000.
    expect(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']).toBeLessThan(
      PARTNER_ORDERS / 20,
    );
  });
});
