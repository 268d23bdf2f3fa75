import type { Queryable } from '../../platform/db/index.ts';

export interface ActionRecord {
  outcome: 'applied' | 'refused' | null;
  reason: string | null;
}

export const actionsRepository = {
  /** Claims the action id for the courier; undefined when it is new (claimed now), else what became of it. */
  async claim(
    db: Queryable,
    courierId: string,
    id: string,
    kind: string,
    now: Date,
  ): Promise<ActionRecord | undefined> {
    const claimed = await db.query(
      'insert into courier_actions (courier_id, id, kind, received_at) values ($1, $2, $3, $4) on conflict do nothing returning id',
      [courierId, id, kind, now],
    );
    if (claimed.length) return undefined;
    return (
      (
        await db.query<ActionRecord>(
          'select outcome, reason from courier_actions where courier_id = $1 and id = $2',
          [courierId, id],
        )
      )[0] ?? { outcome: null, reason: null }
    );
  },

  async settle(
    db: Queryable,
    courierId: string,
    id: string,
    outcome: 'applied' | 'refused',
    reason: string | null,
  ): Promise<void> {
    await db.query(
      'update courier_actions set outcome = $3, reason = $4 where courier_id = $1 and id = $2',
      [courierId, id, outcome, reason],
    );
  },

  /** Forgets a courier's actions received before `before` (their replays are long over). */
  async prune(db: Queryable, courierId: string, before: Date): Promise<void> {
    await db.query('delete from courier_actions where courier_id = $1 and received_at < $2', [
      courierId,
      before,
    ]);
  },

  /** Gives the id back after a failure on our side, so the phone's next replay applies it. */
  async release(db: Queryable, courierId: string, id: string): Promise<void> {
    await db.query(
      'delete from courier_actions where courier_id = $1 and id = $2 and outcome is null',
      [courierId, id],
    );
  },
};
