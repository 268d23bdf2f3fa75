import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { onRawPglite, onRawSchema } from '../../helpers/raw-db.ts';

// Migration 072 on a database built before it: each delivered order gets the time of its
// 'delivered' move as delivered_at; no other order gets one.

const CREATED = new Date('2026-11-20T10:00:00Z');
const DELIVERED = new Date('2026-11-20T10:47:12.345Z');

async function deliveredAtFilledIn(db: DriverDb) {
  const all = readMigrations();
  await migrate(
    db,
    all.filter((m) => m.version < 72),
  );
  await db.transaction(async (tx) => {
    // Foreign keys off: the orders only need to exist.
    await tx.query('set local session_replication_role = replica');
    for (const [id, status] of [
      ['dlv_delivered', 'delivered'],
      ['dlv_failed', 'failed'],
      ['dlv_placed', 'placed'],
    ])
      await tx.query(
        `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, customer_name, customer_phone,
           delivery_address, delivery_city, delivery_region, item, pickup_contact_person, pickup_contact_phone, payer, payment_status,
           pickup_date, estimated_delivery, tracking_token, created_at)
         values ($1, 'app_1', 'ptn_1', 'production', $1, $2, 'Ama', '+233240000000', 'addr', 'Accra', 'Greater Accra', 'box',
           'Kofi', '+233240000001', 'partner', 'wallet_debited', '2026-11-20', $3, $1, $3)`,
        [id, status, CREATED],
      );
    const moves = [
      ['dlv_delivered', 'in_transit', new Date(DELIVERED.getTime() - 600_000)],
      ['dlv_delivered', 'delivered', DELIVERED],
      ['dlv_failed', 'in_transit', DELIVERED],
      ['dlv_failed', 'failed', DELIVERED],
    ] as const;
    for (const [i, [id, status, at]] of moves.entries())
      await tx.query(
        'insert into delivery_order_events (order_id, version, status, at) values ($1, $2, $3, $4)',
        [id, i + 2, status, at],
      );
  });

  expect(await migrate(db, all)).toEqual(all.filter((m) => m.version >= 72).map((m) => m.version));
  expect(await db.query('select id, delivered_at from delivery_orders order by id')).toEqual([
    { id: 'dlv_delivered', delivered_at: DELIVERED },
    { id: 'dlv_failed', delivered_at: null },
    { id: 'dlv_placed', delivered_at: null },
  ]);
}

describe('migration 072 on a database built before it', () => {
  it("fills in each delivered order's delivery time from its timeline (embedded)", () =>
    onRawPglite(deliveredAtFilledIn));

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    "fills in each delivered order's delivery time from its timeline (PostgreSQL)",
    () => onRawSchema(deliveredAtFilledIn),
  );
});
