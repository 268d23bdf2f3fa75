import type { Queryable } from '../../platform/db/index.ts';
import type { ActorKind } from '../../platform/auth/actor.ts';

export interface AuditRow {
  id: string;
  at: Date;
  actor_kind: ActorKind;
  actor_id: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  user_agent: string | null;
}

export interface AuditFilter {
  actorId?: string;
  actorKind?: ActorKind;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
  /** Keyset: entries strictly older than this (time, id). */
  before?: { at: Date; id: string };
  limit: number;
}

const COLS =
  'id, at, actor_kind, actor_id, action, target_type, target_id, before, after, ip, user_agent';

export const auditRepository = {
  async insert(db: Queryable, row: AuditRow): Promise<void> {
    await db.query(
      `insert into audit_log (${COLS}) values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11)`,
      [
        row.id,
        row.at,
        row.actor_kind,
        row.actor_id,
        row.action,
        row.target_type,
        row.target_id,
        JSON.stringify(row.before),
        JSON.stringify(row.after),
        row.ip,
        row.user_agent,
      ],
    );
  },

  /** Newest first; every filter optional. */
  async search(db: Queryable, f: AuditFilter): Promise<AuditRow[]> {
    return db.query<AuditRow>(
      `select ${COLS} from audit_log
        where ($1::text is null or actor_id = $1) and ($2::text is null or actor_kind = $2)
          and ($3::text is null or action = $3) and ($4::text is null or target_type = $4)
          and ($5::text is null or target_id = $5) and ($6::timestamptz is null or at >= $6)
          and ($7::timestamptz is null or at < $7)
          and ($8::timestamptz is null or (at, id) < ($8::timestamptz, $9::text))
        order by at desc, id desc limit $10`,
      [
        f.actorId ?? null,
        f.actorKind ?? null,
        f.action ?? null,
        f.targetType ?? null,
        f.targetId ?? null,
        f.from ?? null,
        f.to ?? null,
        f.before?.at ?? null,
        f.before?.id ?? null,
        f.limit,
      ],
    );
  },
};
