import type { OperatorRole } from '../../platform/auth/actor.ts';
import type { Queryable } from '../../platform/db/index.ts';

export interface OperatorRow {
  id: string;
  email: string;
  name: string;
  roles: OperatorRole[];
  active: boolean;
  totp_confirmed: boolean;
  created_at: Date;
  updated_at: Date;
}

/** What sign-in reads: the row with its password hash and sealed TOTP secret. */
export interface OperatorSecretsRow extends OperatorRow {
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_last_step: string | null;
}

export interface OperatorTokenRow {
  id: string;
  operator_id: string;
  name: string;
  token_hint: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const COLS = 'id, email, name, roles, active, totp_confirmed, created_at, updated_at';
const SECRET_COLS = `${COLS}, password_hash, totp_secret_sealed, totp_last_step`;
const TOKEN_COLS = 'id, operator_id, name, token_hint, created_at, expires_at, revoked_at';

export const operatorsRepository = {
  async insert(
    db: Queryable,
    o: { id: string; email: string; name: string; passwordHash: string; roles: OperatorRole[] },
  ): Promise<OperatorRow> {
    const rows = await db.query<OperatorRow>(
      `insert into operators (id, email, name, password_hash, roles) values ($1, $2, $3, $4, $5) returning ${COLS}`,
      [o.id, o.email, o.name, o.passwordHash, o.roles],
    );
    return rows[0]!;
  },

  async get(db: Queryable, id: string): Promise<OperatorRow | undefined> {
    return (await db.query<OperatorRow>(`select ${COLS} from operators where id = $1`, [id]))[0];
  },

  async getWithSecrets(
    db: Queryable,
    id: string,
    forUpdate = false,
  ): Promise<OperatorSecretsRow | undefined> {
    return (
      await db.query<OperatorSecretsRow>(
        `select ${SECRET_COLS} from operators where id = $1${forUpdate ? ' for update' : ''}`,
        [id],
      )
    )[0];
  },

  async findByEmail(db: Queryable, email: string): Promise<OperatorSecretsRow | undefined> {
    return (
      await db.query<OperatorSecretsRow>(
        `select ${SECRET_COLS} from operators where lower(email) = lower($1)`,
        [email],
      )
    )[0];
  },

  async list(db: Queryable): Promise<OperatorRow[]> {
    return db.query<OperatorRow>(`select ${COLS} from operators order by id`);
  },

  /** Locks every active admin's row (so two demotions cannot both pass the last-admin check) and answers their ids. */
  async lockActiveAdmins(db: Queryable): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `select id from operators where active and 'admin' = any(roles) order by id for update`,
    );
    return rows.map((r) => r.id);
  },

  async update(
    db: Queryable,
    id: string,
    patch: { name?: string; roles?: OperatorRole[]; active?: boolean },
  ): Promise<OperatorRow | undefined> {
    const rows = await db.query<OperatorRow>(
      `update operators set name = coalesce($2, name), roles = coalesce($3, roles), active = coalesce($4, active), updated_at = now()
        where id = $1 returning ${COLS}`,
      [id, patch.name ?? null, patch.roles ?? null, patch.active ?? null],
    );
    return rows[0];
  },

  async setTotp(db: Queryable, id: string, sealed: string): Promise<void> {
    await db.query(
      `update operators set totp_secret_sealed = $2, totp_confirmed = false, totp_last_step = null, updated_at = now() where id = $1`,
      [id, sealed],
    );
  },

  /** Records an accepted code's step, only if it is later than the last one (a concurrent replay loses). */
  async acceptStep(db: Queryable, id: string, step: number, confirm: boolean): Promise<boolean> {
    const rows = await db.query(
      `update operators set totp_last_step = $2, totp_confirmed = totp_confirmed or $3, updated_at = now()
        where id = $1 and (totp_last_step is null or totp_last_step < $2) returning id`,
      [id, step, confirm],
    );
    return rows.length > 0;
  },

  async recordFailure(
    db: Queryable,
    subjects: Array<{ scope: 'account' | 'ip'; subject: string }>,
    at: Date,
  ): Promise<void> {
    if (subjects.length === 0) return;
    await db.query(
      `insert into operator_sign_in_failures (scope, subject, at) select s, j, $3 from unnest($1::text[], $2::text[]) as u(s, j)`,
      [subjects.map((s) => s.scope), subjects.map((s) => s.subject), at],
    );
  },

  /** Failures since `since` and the oldest of them, for one subject. */
  async failures(
    db: Queryable,
    scope: 'account' | 'ip',
    subject: string,
    since: Date,
  ): Promise<{ count: number; oldest: Date | null }> {
    const rows = await db.query<{ count: string; oldest: Date | null }>(
      `select count(*) as count, min(at) as oldest from operator_sign_in_failures where scope = $1 and subject = $2 and at >= $3`,
      [scope, subject, since],
    );
    return { count: Number(rows[0]?.count ?? 0), oldest: rows[0]?.oldest ?? null };
  },

  async clearFailures(db: Queryable, scope: 'account', subject: string): Promise<void> {
    await db.query(`delete from operator_sign_in_failures where scope = $1 and subject = $2`, [
      scope,
      subject,
    ]);
  },

  async insertToken(
    db: Queryable,
    t: {
      id: string;
      operatorId: string;
      name: string;
      hash: string;
      hint: string;
      expiresAt: Date | null;
    },
  ): Promise<OperatorTokenRow> {
    const rows = await db.query<OperatorTokenRow>(
      `insert into operator_tokens (id, operator_id, name, token_hash, token_hint, expires_at) values ($1, $2, $3, $4, $5, $6) returning ${TOKEN_COLS}`,
      [t.id, t.operatorId, t.name, t.hash, t.hint, t.expiresAt],
    );
    return rows[0]!;
  },

  async listTokens(db: Queryable, operatorId: string): Promise<OperatorTokenRow[]> {
    return db.query<OperatorTokenRow>(
      `select ${TOKEN_COLS} from operator_tokens where operator_id = $1 order by id`,
      [operatorId],
    );
  },

  async getToken(db: Queryable, id: string): Promise<OperatorTokenRow | undefined> {
    return (
      await db.query<OperatorTokenRow>(`select ${TOKEN_COLS} from operator_tokens where id = $1`, [
        id,
      ])
    )[0];
  },

  async revokeToken(db: Queryable, id: string): Promise<OperatorTokenRow | undefined> {
    const rows = await db.query<OperatorTokenRow>(
      `update operator_tokens set revoked_at = coalesce(revoked_at, now()) where id = $1 returning ${TOKEN_COLS}`,
      [id],
    );
    return rows[0];
  },

  /** The operator behind a live token (not revoked, not expired, operator active). */
  async findByToken(db: Queryable, hash: string, now: Date): Promise<OperatorRow | undefined> {
    const rows = await db.query<OperatorRow>(
      `select o.id, o.email, o.name, o.roles, o.active, o.totp_confirmed, o.created_at, o.updated_at
         from operator_tokens t join operators o on o.id = t.operator_id
        where t.token_hash = $1 and t.revoked_at is null and (t.expires_at is null or t.expires_at > $2) and o.active`,
      [hash, now],
    );
    return rows[0];
  },
};
