import { describe, expect, it } from 'vitest';
import { dispatchRepository as repo } from '../../../src/modules/dispatch/repository.ts';
import type { Queryable } from '../../../src/platform/db/types.ts';
import { fileDatabase } from '../../helpers/file-database.ts';
import { type PlanNode, planOf } from '../../helpers/plans.ts';

// Dispatch's offers are its history: every offer made stays, answered, expired or withdrawn (an
// hour of 1,000 couriers left 88,931 rows). The reads of a dispatch round and of a courier's screen
// look only at open offers, one a courier at most: each reads them through an index on the open
// ones, never the whole history (the hour's run scanned the table 95,958 times, 114 million rows).

const NOW = new Date();
const database = fileDatabase(async (db) => {
  // 5,000 jobs; 40,000 offers over 1,000 couriers, of which the newest 800 (one per job) are open.
  await db.query(
    `insert into dispatch_jobs (order_id, environment, zone, state, created_at, updated_at, due_at)
     select 'dlv_seed' || g, 'production', 'greater-accra', case when g <= 800 then 'offered' else 'waiting' end, $1, $1, $1
       from generate_series(1, 5000) g`,
    [NOW],
  );
  await db.query(
    `insert into dispatch_offers (id, order_id, courier_id, state, offered_at, expires_at, answered_at)
     select 'ofr_seed' || g, 'dlv_seed' || (1 + g % 5000), 'cou_seed' || (g % 1000),
            case when g <= 800 then 'open' else 'expired' end,
            $1::timestamptz - make_interval(secs => g), $1::timestamptz + interval '30 seconds' - make_interval(secs => g),
            case when g <= 800 then null else $1::timestamptz - make_interval(secs => g) end
       from generate_series(1, 40000) g`,
    [NOW],
  );
  await db.query('analyze dispatch_jobs');
  await db.query('analyze dispatch_offers');
}, 1);

/** The indexes holding open offers only (partial on state = 'open'). */
const OPEN_ONLY = [
  'dispatch_offers_courier_open_idx',
  'dispatch_offers_expiry_idx',
  'dispatch_offers_open_key',
];

const offerReads = (plan: PlanNode[]) =>
  plan.filter((n) => n['Relation Name'] === 'dispatch_offers');

/** Read by courier through the open offers' courier index: the courier's own entries only. */
function expectByCourier(plan: PlanNode[]): void {
  expect(offerReads(plan).map((n) => n['Index Name'])).toEqual([
    'dispatch_offers_courier_open_idx',
  ]);
}

const explained = (run: (q: Queryable) => Promise<unknown>, generic = false) =>
  planOf(database(), run, { generic });

describe('the reads of open offers', () => {
  it("a dispatch round's couriers busy with an offer: the open offers' entries, not the history", async () => {
    const reads = offerReads(await explained((q) => repo.busy(q)));
    expect(reads.length).toBe(1);
    expect(reads[0]!['Node Type']).toMatch(/^Index/);
    expect(OPEN_ONLY).toContain(reads[0]!['Index Name']);
  });

  it("a courier's open offer, in the plan kept for any parameters too", async () => {
    expectByCourier(await explained((q) => repo.openOfferFor(q, 'cou_seed7', NOW)));
    expectByCourier(await explained((q) => repo.openOfferFor(q, 'cou_seed7', NOW), true));
  });

  it("the sandbox courier's open offers", async () => {
    expectByCourier(await explained((q) => repo.openOffersTo(q, 'cou_seed7', 10), true));
  });
});
