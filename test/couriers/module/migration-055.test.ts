import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { onRawPglite, onRawSchema } from '../../helpers/raw-db.ts';

// Migration 055 on a database built before it: a courier action was recorded twice, in couriers'
// courier_actions and dispatch's dispatch_actions. Dispatch's rows move to courier_actions (what it
// alone knew, and what it knew of a claim left unsettled there), and dispatch_actions goes.

const AT = new Date('2026-11-20T10:00:00Z');

async function actionsBefore055BecomeOne(db: DriverDb) {
  const all = readMigrations();
  await migrate(
    db,
    all.filter((m) => m.version < 55),
  );
  const courier = 'cur_migrated';
  await db.query(
    `insert into couriers (id, name, phone, vehicle, created_at, updated_at) values ($1, 'Kojo Asante', '+233240000055', 'motorbike', $2, $2)`,
    [courier, AT],
  );
  const both = randomUUID();
  const unsettled = randomUUID();
  const dispatchOnly = randomUUID();
  const duty = randomUUID();
  const courierAction = (id: string, kind: string, outcome: string | null) =>
    db.query(
      'insert into courier_actions (courier_id, id, kind, outcome, received_at) values ($1, $2, $3, $4, $5)',
      [courier, id, kind, outcome, AT],
    );
  const dispatchAction = (
    id: string,
    kind: string,
    result: Record<string, unknown>,
    who = courier,
  ) =>
    db.query(
      'insert into dispatch_actions (courier_id, action_id, order_id, kind, result, at) values ($1, $2, $3, $4, $5, $6)',
      [who, id, 'dlv_1', kind, JSON.stringify(result), AT],
    );
  const answer = (action: string, stage: string | null, status: string) => ({
    order_id: 'dlv_1',
    action,
    stage,
    status,
  });
  // Recorded by both, settled by both: couriers' record gets dispatch's answer.
  await courierAction(both, 'accept', 'applied');
  await dispatchAction(both, 'accept', answer('accept', 'accepted', 'accepted'));
  // Applied by dispatch, left unsettled by couriers (a stop between the two commits).
  await courierAction(unsettled, 'picked_up', null);
  await dispatchAction(unsettled, 'picked_up', answer('picked_up', 'picked_up', 'in_transit'));
  // Only in dispatch_actions (couriers' record pruned, or never written by an older build).
  await dispatchAction(dispatchOnly, 'decline', answer('decline', null, 'placed'));
  // A courier action dispatch never saw.
  await courierAction(duty, 'duty', 'applied');
  // The sandbox courier's own ids, and an action of a courier no longer on record: not copied.
  await dispatchAction('sandbox.dlv_1.accept', 'accept', answer('accept', 'accepted', 'accepted'));
  await dispatchAction(
    randomUUID(),
    'accept',
    answer('accept', 'accepted', 'accepted'),
    'cur_gone',
  );

  expect(await migrate(db, all)).toEqual(all.filter((m) => m.version >= 55).map((m) => m.version));
  const rows = await db.query<Record<string, unknown>>(
    'select id, kind, outcome, reason, result, received_at from courier_actions order by kind',
  );
  expect(rows).toEqual(
    [
      {
        id: both,
        kind: 'accept',
        outcome: 'applied',
        result: { stage: 'accepted', status: 'accepted' },
      },
      {
        id: dispatchOnly,
        kind: 'decline',
        outcome: 'applied',
        result: { stage: null, status: 'placed' },
      },
      { id: duty, kind: 'duty', outcome: 'applied', result: null },
      {
        id: unsettled,
        kind: 'picked_up',
        outcome: 'applied',
        result: { stage: 'picked_up', status: 'in_transit' },
      },
    ].map((r) => ({ ...r, reason: null, received_at: AT })),
  );
  expect(
    await db.query(
      "select 1 from information_schema.tables where table_name = 'dispatch_actions' and table_schema = current_schema()",
    ),
  ).toEqual([]);
}

describe('migration 055 on a database built before it', () => {
  it('moves dispatch_actions into courier_actions and drops it (embedded)', () =>
    onRawPglite(actionsBefore055BecomeOne));

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'moves dispatch_actions into courier_actions and drops it (PostgreSQL)',
    () => onRawSchema(actionsBefore055BecomeOne),
  );
});
