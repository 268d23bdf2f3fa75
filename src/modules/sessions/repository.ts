import { type Queryable, WITHOUT_FLUSH_WAIT } from '../../platform/db/index.ts';

export type SubjectKind = 'member' | 'operator' | 'courier';

export interface SessionRow {
  id_hash: string;
  subject_kind: SubjectKind;
  subject_id: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

const COLS = 'id_hash, subject_kind, subject_id, csrf_token, created_at, last_seen_at, expires_at';

export const sessionsRepository = {
  async insert(db: Queryable, row: SessionRow): Promise<void> {
    await db.query(`insert into web_sessions (${COLS}) values ($1, $2, $3, $4, $5, $6, $7)`, [
      row.id_hash,
      row.subject_kind,
      row.subject_id,
      row.csrf_token,
      row.created_at,
      row.last_seen_at,
      row.expires_at,
    ]);
  },

  /**
   * The sessions among `idHashes` that have neither passed their absolute end nor been idle since
   * `idleSince`; in the same statement, those last seen before `touchBefore` are seen `now`.
   * A restarted idle clock commits without waiting for the WAL flush: a database crash can only
   * lose a restart, so that a session ends sooner, never later. Never run inside a transaction.
   */
  async findLive(
    db: Queryable,
    idHashes: readonly string[],
    now: Date,
    idleSince: Date,
    touchBefore: Date,
  ): Promise<SessionRow[]> {
    return db.query<SessionRow>(
      `with live as (
         select ${COLS} from web_sessions where id_hash = any($1) and expires_at > $2 and last_seen_at > $3
       ), touched as (
         update web_sessions w set last_seen_at = $2 from live
          where w.id_hash = live.id_hash and live.last_seen_at < $4
         returning ${WITHOUT_FLUSH_WAIT}
       )
       select ${COLS} from live`,
      [idHashes, now, idleSince, touchBefore],
    );
  },

  /** Which of these sessions are live (the same test as findLive), seen or not. */
  async liveAmong(
    db: Queryable,
    idHashes: readonly string[],
    now: Date,
    idleSince: Date,
  ): Promise<string[]> {
    const rows = await db.query<{ id_hash: string }>(
      'select id_hash from web_sessions where id_hash = any($1) and expires_at > $2 and last_seen_at > $3',
      [idHashes, now, idleSince],
    );
    return rows.map((r) => r.id_hash);
  },

  async delete(db: Queryable, idHash: string): Promise<void> {
    await db.query('delete from web_sessions where id_hash = $1', [idHash]);
  },

  async deleteForSubject(db: Queryable, kind: SubjectKind, subjectId: string): Promise<number> {
    return (
      await db.query(
        'delete from web_sessions where subject_kind = $1 and subject_id = $2 returning id_hash',
        [kind, subjectId],
      )
    ).length;
  },

  /** Sessions past their end, removed a batch at a time by whoever starts a session. */
  async deleteExpired(db: Queryable, now: Date, idleSince: Date): Promise<void> {
    await db.query(
      'delete from web_sessions where id_hash in (select id_hash from web_sessions where expires_at <= $1 or last_seen_at <= $2 limit 100)',
      [now, idleSince],
    );
  },
};
