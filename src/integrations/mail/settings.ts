import { int, oneOf, type Env } from '../../platform/settings.ts';

export interface MailSettings {
  /** smtp:// or smtps:// URL (credentials in it); unset: the development outbox keeps the mail. */
  smtpUrl: string | undefined;
  /** The From of every message. */
  from: string;
  /** How often the mail worker looks for due mail besides being woken by commits; 0: no worker in this process. */
  pollMs: number;
  /** How long sent and dead messages stay in mail_queue before the worker deletes them (MAIL_RETENTION_DAYS). */
  retentionDays: number;
  /**
   * Whether /dev/mail shows the development outbox: by default only when the server's public
   * address is this machine, because the outbox holds sign-in and password-reset links.
   */
  devMailPage: 'auto' | 'on' | 'off';
}

/** How mail leaves this server, read from the environment. */
export function mailSettings(env: Env, problems: string[]): MailSettings {
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(smtpUrl))
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  const from = env.MAIL_FROM || 'Partner Platform <no-reply@localhost>';
  if (/[\r\n]/.test(from)) problems.push('MAIL_FROM must be one line');
  const pollMs = int(env, 'MAIL_POLL_MS', 5000, 0, 3_600_000, problems);
  const retentionDays = int(env, 'MAIL_RETENTION_DAYS', 30, 1, 3650, problems);
  const devMailPage = oneOf(env, 'DEV_MAIL_PAGE', ['auto', 'on', 'off'] as const, 'auto', problems);
  return { smtpUrl, from, pollMs, retentionDays, devMailPage };
}
