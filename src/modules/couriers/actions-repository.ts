import type { Queryable } from '../../platform/db/index.ts';
import type { ActionDetail } from './domain/action.ts';

export interface ActionRecord {
  kind: string;
  outcome: 'applied' | 'refused' | null;
  reason: string | null;
  /** The applied answer's detail, or a refusal's error code. */
  result: (ActionDetail & { code?: string }) | null;
}

/** An action as kept for replays, with its id and when it arrived. */
export interface KeptAction extends ActionRecord {
  id: string;
  received_at: Date;
}

export const actionsRepository = {
  /**
   * Claims the action id for the courier in `tx`; undefined when it is new (claimed now), else what
   * became of it. A replay sent while the first is being applied waits here (the primary key) for
   * that transaction, then reads its outcome: applied or refused, never half-done.
   */
  async claim(
    tx: Queryable,
    courierId: string,
    id: string,
    kind: string,
    now: Date,
  ): Promise<ActionRecord | undefined> {
    const claimed = await tx.query(
      'insert into courier_actions (courier_id, id, kind, received_at) values ($1, $2, $3, $4) on conflict do nothing returning id',
      [courierId, id, kind, now],
    );
    if (claimed.length) return undefined;
    return (
      (
        await tx.query<ActionRecord>(
          'select kind, outcome, reason, result from courier_actions where courier_id = $1 and id = $2',
          [courierId, id],
        )
      )[0] ?? { kind, outcome: null, reason: null, result: null }
    );
  },

  async settle(
    tx: Queryable,
    courierId: string,
    id: string,
    settled:
      | { outcome: 'applied'; result: ActionDetail | undefined }
      | { outcome: 'refused'; reason: string; code: string },
  ): Promise<void> {
    await tx.query(
      'update courier_actions set outcome = $3, reason = $4, result = $5 where courier_id = $1 and id = $2',
      [
        courierId,
        id,
        settled.outcome,
        settled.outcome === 'refused' ? settled.reason : null,
        settled.outcome === 'refused'
          ? JSON.stringify({ code: settled.code })
          : settled.result
            ? JSON.stringify(settled.result)
            : null,
      ],
    );
  },

  async history(db: Queryable, courierId: string): Promise<KeptAction[]> {
    return db.query<KeptAction>(
      'select id, kind, outcome, reason, result, received_at from courier_actions where courier_id = $1 order by received_at, id',
      [courierId],
    );
  },

  /** Deletes up to `limit` actions received before `before` (their replays are long over), any courier's; answers how many. */
  async prune(db: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await db.query(
      `delete from courier_actions where (courier_id, id) in (
         select courier_id, id from courier_actions where received_at < $1 limit $2)
       returning 1`,
      [before, limit],
    );
    return rows.length;
  },
};
