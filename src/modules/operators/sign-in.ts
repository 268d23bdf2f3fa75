import {
  decoyHash,
  needsRehash,
  verifyPassword,
  hashPassword,
} from '../../platform/auth/password.ts';
import { generateTotpSecret, otpauthUri, verifyTotp } from '../../platform/auth/totp.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { Logger } from '../../platform/logger.ts';
import { operatorsRepository as repo, type OperatorRow } from './repository.ts';

/** Failures counted per account and per address over this window; past the limit, sign-in waits. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_ACCOUNT_LIMIT = 5;
export const SIGN_IN_IP_LIMIT = 20;
const ISSUER = 'Partner Platform';

const generic = () => errors.invalidCredentials('The email, password or code is not right.');

/**
 * Operator sign-in: password and TOTP code together, one generic answer whichever was wrong. Failures
 * are rows in the database, so the throttle holds across instances; an unknown email costs a hash
 * check like a known one (decoyHash). TOTP enrolment: a secret shown once, confirmed by a first code.
 */
export class OperatorSignIn {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {}

  /** Starts (or restarts, while unconfirmed) TOTP enrolment: the secret and its otpauth URI, shown this once. */
  async enrolTotp(operatorId: string): Promise<{ secret: string; otpauthUri: string }> {
    const operator = await repo.getWithSecrets(this.db, operatorId);
    if (!operator) throw errors.operatorNotFound(`There is no operator ${operatorId}.`);
    if (operator.totp_confirmed)
      throw errors.totpState(
        'This operator has a confirmed authenticator already; it cannot be replaced through the API.',
      );
    const secret = generateTotpSecret();
    await repo.setTotp(this.db, operatorId, this.box.seal(secret));
    return { secret, otpauthUri: otpauthUri(secret, operator.email, ISSUER) };
  }

  /** Confirms enrolment with a first valid code; that code's step counts as used. */
  async confirmTotp(operatorId: string, code: string): Promise<OperatorRow> {
    const operator = await repo.getWithSecrets(this.db, operatorId);
    if (!operator) throw errors.operatorNotFound(`There is no operator ${operatorId}.`);
    if (operator.totp_confirmed || !operator.totp_secret_sealed) {
      throw errors.totpState(
        operator.totp_confirmed
          ? 'TOTP is confirmed already.'
          : 'Start TOTP enrolment first (POST /admin/v1/operators/{operator_id}/totp).',
      );
    }
    const secret = this.box.open(operator.totp_secret_sealed);
    const step = secret
      ? verifyTotp(
          secret,
          code,
          this.clock(),
          operator.totp_last_step === null ? null : Number(operator.totp_last_step),
        )
      : undefined;
    if (step === undefined || !(await repo.acceptStep(this.db, operatorId, step, true))) {
      throw errors.validation('The code is not the current one of this authenticator.', [
        { field: 'code', issue: 'must be the 6-digit code the authenticator shows now' },
      ]);
    }
    return (await repo.get(this.db, operatorId))!;
  }

  /**
   * What sign-in and enrolment share: refuse while throttled, find the operator by email and check
   * the password, doing the same hashing work for an unknown email (the decoy hash).
   */
  private async checkPassword(
    input: { email: string; password: string; ip: string | null },
    now: number,
  ) {
    // An address with control characters (NUL included) is no one's: no lookup, the decoy hash, the generic answer.
    const plausible = !/\p{Cc}/u.test(input.email);
    const account = input.email
      .replace(/\p{Cc}/gu, '')
      .trim()
      .toLowerCase()
      .slice(0, 254);
    const subjects = [
      { scope: 'account' as const, subject: account },
      ...(input.ip ? [{ scope: 'ip' as const, subject: input.ip }] : []),
    ];
    await this.refuseWhileThrottled(subjects, now);
    const operator = plausible ? await repo.findByEmail(this.db, account) : undefined;
    const passwordOk = await verifyPassword(
      input.password,
      operator?.password_hash ?? (await decoyHash()),
    );
    return { account, subjects, operator, passwordOk };
  }

  /** The operator whose email, password and current code these are; one generic 401 otherwise, 429 while throttled. */
  async authenticate(input: {
    email: string;
    password: string;
    code: string;
    ip: string | null;
  }): Promise<OperatorRow> {
    const now = this.clock();
    const { account, subjects, operator, passwordOk } = await this.checkPassword(input, now);
    const secret =
      operator?.totp_confirmed && operator.totp_secret_sealed
        ? this.box.open(operator.totp_secret_sealed)
        : null;
    const step = secret
      ? verifyTotp(
          secret,
          input.code,
          now,
          operator!.totp_last_step === null ? null : Number(operator!.totp_last_step),
        )
      : undefined;
    const ok =
      operator?.active &&
      passwordOk &&
      step !== undefined &&
      (await repo.acceptStep(this.db, operator.id, step, false));
    if (!ok) {
      await repo.recordFailure(this.db, subjects, new Date(now));
      this.log.info({ operator: operator?.id ?? null, ip: input.ip }, 'operator sign-in refused');
      throw generic();
    }
    await repo.clearFailures(this.db, 'account', account);
    if (needsRehash(operator.password_hash)) {
      await this.db.query('update operators set password_hash = $2 where id = $1', [
        operator.id,
        await hashPassword(input.password),
      ]);
    }
    const { password_hash: _, totp_secret_sealed: __, totp_last_step: ___, ...row } = operator;
    return row;
  }

  /**
   * The first half of enrolling in a browser: the active operator whose email and password these are
   * and who has no confirmed authenticator yet. Throttled and counted like sign-in, with the same
   * generic answer for any wrong part (an operator already enrolled signs in instead). It proves the
   * password only: nothing but enrolTotp/confirmTotp may follow from it.
   */
  async passwordForEnrolment(input: {
    email: string;
    password: string;
    ip: string | null;
  }): Promise<OperatorRow> {
    const now = this.clock();
    const { subjects, operator, passwordOk } = await this.checkPassword(input, now);
    if (!operator?.active || !passwordOk || operator.totp_confirmed) {
      await repo.recordFailure(this.db, subjects, new Date(now));
      this.log.info(
        { operator: operator?.id ?? null, ip: input.ip },
        'operator enrolment sign-in refused',
      );
      throw generic();
    }
    const { password_hash: _, totp_secret_sealed: __, totp_last_step: ___, ...row } = operator;
    return row;
  }

  private async refuseWhileThrottled(
    subjects: Array<{ scope: 'account' | 'ip'; subject: string }>,
    now: number,
  ): Promise<void> {
    const since = new Date(now - SIGN_IN_WINDOW_MS);
    for (const { scope, subject } of subjects) {
      const { count, oldest } = await repo.failures(this.db, scope, subject, since);
      if (count >= (scope === 'account' ? SIGN_IN_ACCOUNT_LIMIT : SIGN_IN_IP_LIMIT)) {
        const retryAfter = Math.max(
          1,
          Math.ceil(((oldest?.getTime() ?? now) + SIGN_IN_WINDOW_MS - now) / 1000),
        );
        throw errors.tooManyAttempts(
          `Too many failed sign-ins; try again in ${retryAfter} seconds.`,
          retryAfter,
        );
      }
    }
  }
}
