import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import {
  decoyHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '../../platform/auth/password.ts';
import type { AccountsService } from '../accounts/index.ts';
import {
  emailProblem,
  normalizeEmail,
  partnerNameProblem,
  passwordProblem,
} from './domain/input.ts';
import type { Role } from './domain/roles.ts';
import {
  alreadyRegisteredMail,
  invitationMail,
  resetMail,
  verificationMail,
  type MailSender,
} from './mails.ts';
import {
  membersRepository as repo,
  type EmailTokenRow,
  type MemberRow,
  type MembershipRow,
  type TokenPurpose,
} from './repository.ts';
import { SignInThrottle } from './throttle.ts';

const HOUR = 3_600_000;
const TOKEN_LIFETIME: Record<TokenPurpose, number> = {
  verify: 24 * HOUR,
  reset: HOUR,
  invite: 7 * 24 * HOUR,
};

/** At most this many links of one kind are mailed to one address per hour: no one can flood an inbox through us. */
export const MAILS_PER_HOUR = 5;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The same answer for a wrong password and an unknown email: it tells nobody which emails have accounts. */
const WRONG_CREDENTIALS = 'The email or password is not right.';

export interface MembersDeps {
  db: Db;
  accounts: AccountsService;
  mail: MailSender;
  publicBaseUrl: string;
  clock: () => number;
}

function check(problem: string | undefined, field: string): void {
  if (problem) throw errors.validation(problem, [{ field, issue: problem }]);
}

/**
 * Partner members: the people who sign in to the dashboard. Sign-up creates the partner (through
 * AccountsService, so a partner is made one way only) with its first owner, in one transaction.
 * Every mail is queued in the transaction of the change that causes it (see MailSender).
 */
export class MembersService {
  readonly throttle: SignInThrottle;

  constructor(private readonly deps: MembersDeps) {
    this.throttle = new SignInThrottle(deps.db, deps.clock);
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }

  /** Whether another link of this kind may be mailed to `email` now. */
  private async mayMail(email: string, purpose: TokenPurpose): Promise<boolean> {
    return (
      (await repo.tokensIssuedSince(
        this.deps.db,
        email,
        purpose,
        new Date(this.deps.clock() - HOUR),
      )) < MAILS_PER_HOUR
    );
  }

  private async issueToken(
    q: Queryable,
    t: { purpose: TokenPurpose; email: string; memberId?: string; partnerId?: string; role?: Role },
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await repo.insertToken(q, {
      hash: hashToken(token),
      purpose: t.purpose,
      email: t.email,
      memberId: t.memberId ?? null,
      partnerId: t.partnerId ?? null,
      role: t.role ?? null,
      expiresAt: new Date(this.deps.clock() + TOKEN_LIFETIME[t.purpose]),
    });
    return token;
  }

  private link(path: string, token: string): string {
    return `${this.deps.publicBaseUrl}${path}/${token}`;
  }

  /**
   * A new partner and its owner, who must verify the email before using the dashboard: the member,
   * the partner, the membership, the verification token and its queued mail commit together or not
   * at all. When the email is taken, its owner is mailed instead and the caller sees the same answer.
   */
  async signUp(input: { email: string; password: string; partnerName: string }): Promise<void> {
    const email = normalizeEmail(input.email);
    check(emailProblem(email), 'email');
    check(passwordProblem(input.password), 'password');
    check(partnerNameProblem(input.partnerName), 'partner_name');
    // Hashing is slow: done before the transaction opens.
    const passwordHash = await hashPassword(input.password);
    await this.deps.db.transaction(async (tx) => {
      const member = await repo.insertMember(tx, {
        id: newId('mbr'),
        email,
        passwordHash,
        verified: false,
      });
      if (!member) {
        await this.deps.mail.send(
          tx,
          alreadyRegisteredMail(email, `${this.deps.publicBaseUrl}/sign-in`),
        );
        return;
      }
      const partner = await this.deps.accounts.createPartner(input.partnerName.trim(), tx);
      if (!(await repo.insertMembership(tx, member.id, partner.id, 'owner')))
        throw new Error(`a new member ${member.id} already had a membership`);
      await this.sendVerification(tx, member);
    });
  }

  private async sendVerification(q: Queryable, member: MemberRow): Promise<void> {
    const token = await this.issueToken(q, {
      purpose: 'verify',
      email: member.email,
      memberId: member.id,
    });
    await this.deps.mail.send(q, verificationMail(member.email, this.link('/verify-email', token)));
  }

  async resendVerification(memberId: string): Promise<void> {
    const member = await repo.findById(this.deps.db, memberId);
    if (!member || member.email_verified_at) return;
    if (!(await this.mayMail(member.email, 'verify')))
      throw errors.rateLimited(
        'We already sent several links this hour: use the newest one, or try again later.',
        { 'retry-after': '3600' },
      );
    await this.deps.db.transaction((tx) => this.sendVerification(tx, member));
  }

  /** Marks the email verified; false when the link is unknown, used or expired. */
  async verifyEmail(token: string): Promise<boolean> {
    const used = await repo.consumeToken(this.deps.db, hashToken(token), 'verify', this.now());
    if (!used?.member_id) return false;
    await repo.markVerified(this.deps.db, used.member_id);
    return true;
  }

  /** The member whose password this is; one generic error otherwise, after the same work. */
  async signIn(rawEmail: string, password: string, clientAddress: string): Promise<MemberRow> {
    const email = normalizeEmail(rawEmail);
    await this.throttle.check(email, clientAddress);
    const member = email.length <= 254 ? await repo.findByEmail(this.deps.db, email) : undefined;
    const ok = await verifyPassword(password, member?.password_hash ?? (await decoyHash()));
    if (!member || !ok) {
      await this.throttle.failed(email, clientAddress);
      throw errors.validation(WRONG_CREDENTIALS, [
        { field: 'email', issue: 'email or password not right' },
      ]);
    }
    await this.throttle.succeeded(email);
    if (needsRehash(member.password_hash))
      await repo.setPassword(this.deps.db, member.id, await hashPassword(password), false);
    return member;
  }

  /** Mails a reset link when the email has an account; says nothing either way. */
  async requestPasswordReset(rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    if (emailProblem(email)) return;
    const member = await repo.findByEmail(this.deps.db, email);
    // Past the hourly cap nothing more is sent, and the answer stays the same.
    if (!member || !(await this.mayMail(email, 'reset'))) return;
    await this.deps.db.transaction(async (tx) => {
      const token = await this.issueToken(tx, { purpose: 'reset', email, memberId: member.id });
      await this.deps.mail.send(tx, resetMail(email, this.link('/reset-password', token)));
    });
  }

  async resetLinkValid(token: string): Promise<boolean> {
    return (
      (await repo.peekToken(this.deps.db, hashToken(token), 'reset', this.now())) !== undefined
    );
  }

  /** Sets the new password (the mail proved the address, so it counts as verified); answers whose it was. */
  async resetPassword(token: string, password: string): Promise<string> {
    check(passwordProblem(password), 'password');
    const used = await repo.consumeToken(this.deps.db, hashToken(token), 'reset', this.now());
    if (!used?.member_id)
      throw errors.validation('This reset link is no longer valid; ask for a new one.', [
        { field: 'token', issue: 'unknown, used or expired' },
      ]);
    await repo.setPassword(this.deps.db, used.member_id, await hashPassword(password), true);
    await this.throttle.succeeded(used.email);
    return used.member_id;
  }

  async getMember(memberId: string): Promise<MemberRow | undefined> {
    return repo.findById(this.deps.db, memberId);
  }

  /** The member signed up with this address (in any case), if any. */
  async findByEmail(rawEmail: string): Promise<MemberRow | undefined> {
    return repo.findByEmail(this.deps.db, normalizeEmail(rawEmail));
  }

  async membershipOf(memberId: string): Promise<MembershipRow | undefined> {
    return repo.membershipOf(this.deps.db, memberId);
  }

  async team(partnerId: string) {
    return repo.team(this.deps.db, partnerId);
  }

  /** Mails an invitation to join `partnerId` with `role`. */
  async invite(partnerId: string, rawEmail: string, role: Role): Promise<void> {
    const email = normalizeEmail(rawEmail);
    check(emailProblem(email), 'email');
    const existing = await repo.findByEmail(this.deps.db, email);
    if (existing && (await repo.membershipOf(this.deps.db, existing.id))) {
      throw errors.validation(
        'This person already belongs to a partner team; a member can belong to one team only.',
        [{ field: 'email', issue: 'already in a team' }],
      );
    }
    if (!(await this.mayMail(email, 'invite')))
      throw errors.rateLimited(
        'Several invitations went to this address this hour; try again later.',
        { 'retry-after': '3600' },
      );
    const partner = await this.deps.accounts.getPartner(partnerId);
    await this.deps.db.transaction(async (tx) => {
      const token = await this.issueToken(tx, { purpose: 'invite', email, partnerId, role });
      await this.deps.mail.send(
        tx,
        invitationMail(email, partner.name, role, this.link('/invitations', token)),
      );
    });
  }

  /** The invitation behind a link, to show before it is accepted; undefined when no longer valid. */
  async invitation(
    token: string,
  ): Promise<(EmailTokenRow & { partnerName: string; hasAccount: boolean }) | undefined> {
    const row = await repo.peekToken(this.deps.db, hashToken(token), 'invite', this.now());
    if (!row?.partner_id) return undefined;
    const partner = await this.deps.accounts.getPartner(row.partner_id);
    return {
      ...row,
      partnerName: partner.name,
      hasAccount: (await repo.findByEmail(this.deps.db, row.email)) !== undefined,
    };
  }

  /**
   * Accepts an invitation: with the account's password when the invited email has one, or with a
   * new password that creates the account (verified: the mail reached it). Answers the member.
   */
  async acceptInvitation(
    token: string,
    password: string,
    clientAddress: string,
  ): Promise<MemberRow> {
    const invite = await repo.peekToken(this.deps.db, hashToken(token), 'invite', this.now());
    if (!invite?.partner_id || !invite.role)
      throw errors.validation('This invitation is no longer valid; ask for a new one.', [
        { field: 'token', issue: 'unknown, used or expired' },
      ]);
    const existing = await repo.findByEmail(this.deps.db, invite.email);
    let member: MemberRow;
    if (existing) {
      member = await this.signIn(invite.email, password, clientAddress);
    } else {
      check(passwordProblem(password), 'password');
      const created = await repo.insertMember(this.deps.db, {
        id: newId('mbr'),
        email: invite.email,
        passwordHash: await hashPassword(password),
        verified: true,
      });
      if (!created)
        throw errors.validation(
          'An account was just created for this email; open the invitation again and sign in.',
          [{ field: 'email', issue: 'taken meanwhile' }],
        );
      member = created;
    }
    if (!(await repo.consumeToken(this.deps.db, hashToken(token), 'invite', this.now()))) {
      throw errors.validation('This invitation is no longer valid; ask for a new one.', [
        { field: 'token', issue: 'used meanwhile' },
      ]);
    }
    await repo.markVerified(this.deps.db, member.id);
    if (!(await repo.insertMembership(this.deps.db, member.id, invite.partner_id, invite.role))) {
      throw errors.validation(
        'This account already belongs to a partner team; a member can belong to one team only.',
        [{ field: 'email', issue: 'already in a team' }],
      );
    }
    return member;
  }

  /** Changes a member's role; the partner always keeps an owner. */
  async changeRole(partnerId: string, memberId: string, role: Role): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, partnerId);
      requireOwnerLeft(team, memberId, role);
      await repo.setRole(tx, memberId, partnerId, role);
    });
  }

  /** Removes a member from the team (their account stays); the partner always keeps an owner. */
  async removeMember(partnerId: string, memberId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, partnerId);
      requireOwnerLeft(team, memberId, undefined);
      await repo.deleteMembership(tx, memberId, partnerId);
    });
  }
}

/** Refuses a change (new role, or removal when undefined) that would leave the team without an owner. */
function requireOwnerLeft(
  team: MembershipRow[],
  memberId: string,
  newRole: Role | undefined,
): void {
  if (!team.some((m) => m.member_id === memberId))
    throw errors.notFound('This person is not in your team.');
  const ownersAfter = team.filter((m) =>
    m.member_id === memberId ? newRole === 'owner' : m.role === 'owner',
  ).length;
  if (ownersAfter === 0)
    throw errors.validation('A team needs at least one owner: make someone else owner first.', [
      { field: 'role', issue: 'last owner' },
    ]);
}
