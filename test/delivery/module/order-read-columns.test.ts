import { describe, expect, it } from 'vitest';
import { ordersRepository as repo } from '../../../src/modules/delivery/orders/repository.ts';
import { fileDatabase } from '../../helpers/file-database.ts';

// orders.track reads what tracking shows of an order (and the owner it is checked against), not
// the order's every column: a third of the columns to parse on the hottest read. orders.get and
// everything else keep the whole row. Both carry the timeline and another module's column.

const CREATED = new Date('2026-11-20T10:00:00Z');
const MOVED = new Date('2026-11-20T10:47:12.345Z');
const OWNER = { appId: 'app_cols', environment: 'production' as const };

const database = fileDatabase(async (db) => {
  await db.transaction(async (tx) => {
    // Foreign keys off: the order only needs to exist.
    await tx.query('set local session_replication_role = replica');
    await tx.query(
      `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, customer_name, customer_phone,
         delivery_address, delivery_city, delivery_region, item, pickup_contact_person, pickup_contact_phone, payer, payment_status,
         pickup_date, estimated_delivery, tracking_token, created_at)
       values ('dlv_cols', 'app_cols', 'ptn_cols', 'production', 'ref-cols', 'accepted', 'Ama', '+233240000000', 'addr', 'Accra',
         'Greater Accra', 'box', 'Kofi', '+233240000001', 'recipient', 'pending', '2026-11-20', $1, 'tok_cols', $1)`,
      [CREATED],
    );
    await tx.query(
      `insert into delivery_order_events (order_id, version, status, at) values ('dlv_cols', 2, 'accepted', $1)`,
      [MOVED],
    );
  });
});

const TRACKING = [
  'app_id',
  'created_at',
  'customer_name',
  'customer_phone',
  'delivery_attempts',
  'environment',
  'estimated_delivery',
  'failure_note',
  'failure_reason',
  'id',
  'order_reference',
  'status',
];
const TIMELINE = [
  { version: 1, status: 'placed', note: null, at: CREATED },
  { version: 2, status: 'accepted', note: null, at: MOVED },
];

describe('reading an owned order', () => {
  it('for tracking, by id or reference: the tracking columns, the timeline and the column alongside', async () => {
    const byId = await repo.findOwned(database(), 'dlv_cols', OWNER, `'beside'`, 'tracking');
    expect(Object.keys(byId!.order).sort()).toEqual(TRACKING);
    expect(byId).toMatchObject({ events: TIMELINE, alongside: 'beside' });
    const byRef = await repo.findOwnedByReference(
      database(),
      'ref-cols',
      OWNER,
      undefined,
      'tracking',
    );
    expect(Object.keys(byRef!.order).sort()).toEqual(TRACKING);
    expect(byRef!.events).toEqual(TIMELINE);
  });

  it('by default: the whole order', async () => {
    const found = await repo.findOwned(database(), 'dlv_cols', OWNER);
    expect(Object.keys(found!.order)).toEqual(
      expect.arrayContaining([...TRACKING, 'payer', 'webhook_url', 'updated_at']),
    );
    expect(Object.keys(found!.order)).not.toContain('moves');
    expect(found).toMatchObject({ events: TIMELINE, alongside: null });
  });

  it('answers nothing for another app, whichever columns', async () => {
    const other = { ...OWNER, appId: 'app_other' };
    expect(
      await repo.findOwned(database(), 'dlv_cols', other, undefined, 'tracking'),
    ).toBeUndefined();
    expect(await repo.findOwned(database(), 'dlv_cols', other)).toBeUndefined();
  });
});
