import type { Queryable } from '../../platform/db/index.ts';
import type { Role } from './domain/roles.ts';

export interface MemberRow {
  id: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  created_at: Date;
}

export interface MembershipRow {
  member_id: string;
  partner_id: string;
  role: Role;
  created_at: Date;
}

export interface TeamMemberRow extends MembershipRow {
  email: string;
}

export type TokenPurpose = 'verify' | 'reset' | 'invite';

export interface EmailTokenRow {
  purpose: TokenPurpose;
  email: string;
  member_id: string | null;
  partner_id: string | null;
  role: Role | null;
  expires_at: Date;
}

const MEMBER_COLS = 'id, email, password_hash, email_verified_at, created_at';
const TOKEN_COLS = 'purpose, email, member_id, partner_id, role, expires_at';

export const membersRepository = {
  /** The new member, or undefined when the email is taken. */
  async insertMember(
    db: Queryable,
    m: { id: string; email: string; passwordHash: string; verified: boolean },
  ): Promise<MemberRow | undefined> {
    const rows = await db.query<MemberRow>(
      `insert into members (id, email, password_hash, email_verified_at) values ($1, $2, $3, case when $4 then now() end)
       on conflict (email) do nothing returning ${MEMBER_COLS}`,
      [m.id, m.email, m.passwordHash, m.verified],
    );
    return rows[0];
  },

  async findById(db: Queryable, id: string): Promise<MemberRow | undefined> {
    return (await db.query<MemberRow>(`select ${MEMBER_COLS} from members where id = $1`, [id]))[0];
  },

  async findByEmail(db: Queryable, email: string): Promise<MemberRow | undefined> {
    return (
      await db.query<MemberRow>(`select ${MEMBER_COLS} from members where email = $1`, [email])
    )[0];
  },

  async setPassword(db: Queryable, id: string, hash: string, verify: boolean): Promise<void> {
    await db.query(
      'update members set password_hash = $2, email_verified_at = case when $3 then coalesce(email_verified_at, now()) else email_verified_at end where id = $1',
      [id, hash, verify],
    );
  },

  async markVerified(db: Queryable, id: string): Promise<void> {
    await db.query(
      'update members set email_verified_at = coalesce(email_verified_at, now()) where id = $1',
      [id],
    );
  },

  async insertMembership(
    db: Queryable,
    memberId: string,
    partnerId: string,
    role: Role,
  ): Promise<boolean> {
    const rows = await db.query(
      'insert into memberships (member_id, partner_id, role) values ($1, $2, $3) on conflict do nothing returning member_id',
      [memberId, partnerId, role],
    );
    return rows.length > 0;
  },

  async membershipOf(db: Queryable, memberId: string): Promise<MembershipRow | undefined> {
    return (
      await db.query<MembershipRow>(
        'select member_id, partner_id, role, created_at from memberships where member_id = $1',
        [memberId],
      )
    )[0];
  },

  async team(db: Queryable, partnerId: string): Promise<TeamMemberRow[]> {
    return db.query<TeamMemberRow>(
      `select s.member_id, s.partner_id, s.role, s.created_at, m.email
         from memberships s join members m on m.id = s.member_id where s.partner_id = $1 order by s.created_at, s.member_id`,
      [partnerId],
    );
  },

  /** The partner's memberships, locked until the end of the transaction (role changes check the owners left). */
  async lockTeam(tx: Queryable, partnerId: string): Promise<MembershipRow[]> {
    return tx.query<MembershipRow>(
      'select member_id, partner_id, role, created_at from memberships where partner_id = $1 order by member_id for update',
      [partnerId],
    );
  },

  async setRole(tx: Queryable, memberId: string, partnerId: string, role: Role): Promise<void> {
    await tx.query('update memberships set role = $3 where member_id = $1 and partner_id = $2', [
      memberId,
      partnerId,
      role,
    ]);
  },

  async deleteMembership(tx: Queryable, memberId: string, partnerId: string): Promise<void> {
    await tx.query('delete from memberships where member_id = $1 and partner_id = $2', [
      memberId,
      partnerId,
    ]);
  },

  async insertToken(
    db: Queryable,
    t: {
      hash: string;
      purpose: TokenPurpose;
      email: string;
      memberId: string | null;
      partnerId: string | null;
      role: Role | null;
      expiresAt: Date;
    },
  ): Promise<void> {
    await db.query(
      'insert into member_email_tokens (token_hash, purpose, email, member_id, partner_id, role, expires_at) values ($1, $2, $3, $4, $5, $6, $7)',
      [t.hash, t.purpose, t.email, t.memberId, t.partnerId, t.role, t.expiresAt],
    );
  },

  /** How many links of this purpose were issued to `email` since `since` (mail flood guard). */
  async tokensIssuedSince(
    db: Queryable,
    email: string,
    purpose: TokenPurpose,
    since: Date,
  ): Promise<number> {
    const rows = await db.query<{ n: number }>(
      'select count(*)::int as n from member_email_tokens where email = $1 and purpose = $2 and created_at > $3',
      [email, purpose, since],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** A live token, not used up (to show the page it opens). */
  async peekToken(
    db: Queryable,
    hash: string,
    purpose: TokenPurpose,
    now: Date,
  ): Promise<EmailTokenRow | undefined> {
    const rows = await db.query<EmailTokenRow>(
      `select ${TOKEN_COLS} from member_email_tokens where token_hash = $1 and purpose = $2 and used_at is null and expires_at > $3`,
      [hash, purpose, now],
    );
    return rows[0];
  },

  /** Uses a live token up, in one statement: of two concurrent uses only one gets the row. */
  async consumeToken(
    db: Queryable,
    hash: string,
    purpose: TokenPurpose,
    now: Date,
  ): Promise<EmailTokenRow | undefined> {
    const rows = await db.query<EmailTokenRow>(
      `update member_email_tokens set used_at = $3 where token_hash = $1 and purpose = $2 and used_at is null and expires_at > $3 returning ${TOKEN_COLS}`,
      [hash, purpose, now],
    );
    return rows[0];
  },

  async recordFailure(db: Queryable, scopes: string[], at: Date): Promise<void> {
    await db.query('insert into sign_in_failures (scope, at) select unnest($1::text[]), $2', [
      scopes,
      at,
    ]);
  },

  /** Failures per scope since `since`. */
  async failuresSince(
    db: Queryable,
    scopes: string[],
    since: Date,
  ): Promise<Map<string, { count: number; oldest: Date }>> {
    const rows = await db.query<{ scope: string; n: number; oldest: Date }>(
      'select scope, count(*)::int as n, min(at) as oldest from sign_in_failures where scope = any($1::text[]) and at > $2 group by scope',
      [scopes, since],
    );
    return new Map(rows.map((r) => [r.scope, { count: Number(r.n), oldest: new Date(r.oldest) }]));
  },

  async clearFailures(db: Queryable, scope: string): Promise<void> {
    await db.query('delete from sign_in_failures where scope = $1', [scope]);
  },

  async pruneFailures(db: Queryable, before: Date): Promise<void> {
    await db.query(
      'delete from sign_in_failures where ctid in (select ctid from sign_in_failures where at < $1 limit 500)',
      [before],
    );
  },
};
