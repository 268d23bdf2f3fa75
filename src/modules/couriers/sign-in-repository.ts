import type { Queryable } from '../../platform/db/index.ts';

export interface SignInCodeRow {
  id: string;
  courier_id: string;
  code_hash: string;
  attempts: number;
}

export const signInRepository = {
  async insert(
    db: Queryable,
    row: {
      id: string;
      phone: string;
      courierId: string | null;
      codeHash: string | null;
      ip: string;
      now: Date;
      expiresAt: Date;
    },
  ): Promise<void> {
    await db.query(
      'insert into courier_sign_in_codes (id, phone, courier_id, code_hash, ip, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7)',
      [row.id, row.phone, row.courierId, row.codeHash, row.ip, row.now, row.expiresAt],
    );
  },

  /** When the phone's and the address's recent requests were made (newest first, enough for the throttle). */
  async recentRequests(
    db: Queryable,
    q: { phone: string; ip: string; since: Date; limit: number },
  ): Promise<{ phone: Date[]; ip: Date[] }> {
    const byPhone = await db.query<{ created_at: Date }>(
      'select created_at from courier_sign_in_codes where phone = $1 and created_at > $2 order by created_at desc limit $3',
      [q.phone, q.since, q.limit],
    );
    const byIp = await db.query<{ created_at: Date }>(
      'select created_at from courier_sign_in_codes where ip = $1 and created_at > $2 order by created_at desc limit $3',
      [q.ip, q.since, q.limit],
    );
    return {
      phone: byPhone.map((r) => new Date(r.created_at)),
      ip: byIp.map((r) => new Date(r.created_at)),
    };
  },

  /** The newest request for the phone, when it carries a code still unused and unexpired. */
  async latestLive(db: Queryable, phone: string, now: Date): Promise<SignInCodeRow | undefined> {
    const rows = await db.query<SignInCodeRow & { used_at: Date | null; expires_at: Date }>(
      'select id, courier_id, code_hash, attempts, used_at, expires_at from courier_sign_in_codes where phone = $1 order by created_at desc, id desc limit 1',
      [phone],
    );
    const row = rows[0];
    return row?.code_hash && row.courier_id && !row.used_at && new Date(row.expires_at) > now
      ? row
      : undefined;
  },

  async countWrongTry(db: Queryable, id: string): Promise<void> {
    await db.query('update courier_sign_in_codes set attempts = attempts + 1 where id = $1', [id]);
  },

  /** Uses the code up; false when another request used it first or it has run out of tries. */
  async use(db: Queryable, id: string, now: Date, maxAttempts: number): Promise<boolean> {
    return (
      (
        await db.query(
          'update courier_sign_in_codes set used_at = $2 where id = $1 and used_at is null and attempts < $3 returning id',
          [id, now, maxAttempts],
        )
      ).length > 0
    );
  },

  /** Requests older than `before`, removed a batch at a time. */
  async prune(db: Queryable, before: Date): Promise<void> {
    await db.query(
      'delete from courier_sign_in_codes where id in (select id from courier_sign_in_codes where created_at < $1 limit 500)',
      [before],
    );
  },
};
