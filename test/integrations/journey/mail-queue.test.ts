import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { MAIL_BACKOFF_MS, MAIL_MAX_ATTEMPTS } from '../../../src/integrations/mail/index.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { FakeSmtp } from '../../fakes/smtp.ts';
import {
  ADMIN_TOKEN,
  embeddedPass,
  SECRETS_KEY,
  startPlatform,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { mailTo } from '../../helpers/outbox-read.ts';
import { freePort, seedDataDir, spawnServer } from '../../helpers/process.ts';
import { mailedLink, newEmail, PASSWORD, WebClient } from '../../helpers/web.ts';

interface QueueRow {
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
}

const queued = (p: TestPlatform, to: string) =>
  p.app.platform.db.query<QueueRow>(
    'select status, attempts, next_attempt_at, last_error from mail_queue where to_address = $1 order by id',
    [to],
  );

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const signUp = (url: string, email: string, partnerName = 'Queue Foods') =>
  new WebClient(url).submit('/sign-up', '/sign-up', {
    email,
    password: PASSWORD,
    partner_name: partnerName,
  });

describe('sign-up is one transaction', () => {
  let p: TestPlatform;
  afterAll(async () => {
    await p?.close();
  });

  it('leaves no member, partner, token or mail when the owner membership cannot be written, and the email stays free', async () => {
    p = await startPlatform();
    const db = p.app.platform.db;
    await db.exec(`create function refuse_membership() returns trigger language plpgsql as $$ begin raise exception 'membership refused by the test'; end $$;
                   create trigger refuse_membership before insert on memberships for each row execute function refuse_membership();`);
    const email = newEmail('atomic');
    const partnerName = `Atomic ${email}`;
    const failed = await signUp(p.url, email, partnerName);
    expect(failed.status).toBe(500);
    expect(await db.query('select id from members where email = $1', [email])).toEqual([]);
    expect(await db.query('select id from partners where name = $1', [partnerName])).toEqual([]);
    expect(
      await db.query('select email from member_email_tokens where email = $1', [email]),
    ).toEqual([]);
    expect(await queued(p, email)).toEqual([]);

    await db.exec(
      'drop trigger refuse_membership on memberships; drop function refuse_membership();',
    );
    const again = await signUp(p.url, email, partnerName);
    expect(again.status).toBe(200);
    // A new account, not "already registered": the verification link arrives and the owner has the partner.
    expect(await mailedLink(p, email, '/verify-email')).toMatch(/^\/verify-email\//);
    expect((await queued(p, email)).map((m) => m.status)).toEqual(['sent']);
    const { members, accounts } = p.app.platform;
    const member = await members.findByEmail(email);
    const membership = (await members.membershipOf(member!.id))!;
    const { name } = await accounts.getPartner(membership.partner_id);
    expect({ name, role: membership.role }).toEqual({ name: partnerName, role: 'owner' });
  });

  it('queues the "already registered" mail for a taken email, answering the same page', async () => {
    const email = newEmail('taken');
    const first = await signUp(p.url, email);
    const second = await signUp(p.url, email);
    expect(second.status).toBe(first.status);
    expect(second.text.replace(/value="[^"]*"/g, '')).toBe(
      first.text.replace(/value="[^"]*"/g, ''),
    );
    await until(
      'both mails',
      async () => (await queued(p, email)).filter((m) => m.status === 'sent').length === 2,
    );
    const subjects = (await mailTo(p, email)).reverse();
    expect(subjects.map((s) => s.subject)).toEqual([
      'Verify your email for the Partner Platform',
      'You already have a Partner Platform account',
    ]);
    expect(await p.app.platform.members.findByEmail(email)).toBeDefined();
  });
});

describe('mail while the SMTP server is down', () => {
  const smtp = new FakeSmtp();
  let p: TestPlatform;
  afterAll(async () => {
    await p?.close();
    await smtp.close();
  });

  it('answers the sign-up page normally, keeps the mail queued, and sends it once the server is back', async () => {
    const port = await freePort();
    let now = Date.parse('2026-03-02T09:00:00Z');
    p = await startPlatform({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_POLL_MS: '50' },
      clock: () => now,
    });
    const email = newEmail('down');
    const res = await signUp(p.url, email);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Check your mail');
    const failed = await until('a failed attempt', async () =>
      (await queued(p, email)).find((m) => m.last_error !== null),
    );
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed!.last_error).toMatch(/ECONNREFUSED/);
    expect(new Date(failed!.next_attempt_at).getTime()).toBe(now + MAIL_BACKOFF_MS[0]);

    await smtp.start(port);
    // Not before the backoff has passed.
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received).toEqual([]);
    now += MAIL_BACKOFF_MS[0];
    const mail = await until('the mail at the SMTP server', async () =>
      smtp.received.find((m) => m.to.includes(email)),
    );
    expect(mail.raw).toMatch(/^Subject: Verify your email for the Partner Platform\r?$/m);
    await until(
      'the mail recorded as sent',
      async () => (await queued(p, email))[0]?.status === 'sent',
    );
    expect(await queued(p, email)).toMatchObject([
      { status: 'sent', attempts: 2, last_error: null },
    ]);
    // The one-time link is not kept once sent.
    expect(
      await p.app.platform.db.query('select body from mail_queue where to_address = $1', [email]),
    ).toEqual([{ body: '' }]);
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});

describe('mail retries', () => {
  let p: TestPlatform;
  const lines: Array<Record<string, unknown>> = [];
  afterAll(async () => {
    await p?.close();
  });

  it('backs off after each failure and gives up (dead, logged at error, counted in /metrics) after the limit', async () => {
    const port = await freePort();
    let now = Date.parse('2026-03-02T09:00:00Z');
    const logStream = new PassThrough();
    logStream.on('data', (c: Buffer) =>
      lines.push(
        ...c
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      ),
    );
    // No worker in the app (MAIL_POLL_MS=0): the test runs each round itself.
    p = await startPlatform({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_POLL_MS: '0', LOG_LEVEL: 'warn' },
      clock: () => now,
      logStream,
    });
    const queue = p.app.platform.mailQueue;
    const email = newEmail('retry');
    expect((await signUp(p.url, email)).status).toBe(200);
    const gaps: number[] = [];
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await queue.deliverDue()).toBe(1);
      const [row] = await queued(p, email);
      expect(row!.attempts).toBe(attempt);
      if (attempt === MAIL_MAX_ATTEMPTS) break;
      expect(row!.status).toBe('pending');
      const gap = new Date(row!.next_attempt_at).getTime() - now;
      gaps.push(gap);
      // Nothing is due before the backoff has passed.
      now += gap - 1000;
      expect(await queue.deliverDue()).toBe(0);
      now += 1000;
    }
    expect(gaps).toEqual([30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 21_600_000]);
    const [dead] = await queued(p, email);
    expect(dead).toMatchObject({ status: 'dead', attempts: MAIL_MAX_ATTEMPTS });
    expect(dead!.last_error).toMatch(/ECONNREFUSED/);
    expect(
      await p.app.platform.db.query('select body from mail_queue where to_address = $1', [email]),
    ).toEqual([{ body: '' }]);
    now += 24 * 3_600_000;
    expect(await queue.deliverDue()).toBe(0);
    await until('the error line', async () =>
      lines.find((l) => l.msg === 'mail could not be sent; gave up'),
    );
    expect(lines.find((l) => l.msg === 'mail could not be sent; gave up')).toMatchObject({
      level: 50,
      to: email,
      attempts: MAIL_MAX_ATTEMPTS,
    });
    expect(lines.filter((l) => l.msg === 'mail could not be sent; will retry')).toHaveLength(
      MAIL_MAX_ATTEMPTS - 1,
    );

    expect((await signUp(p.url, newEmail('pending'))).status).toBe(200);
    const metrics = await (
      await fetch(`${p.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).text();
    expect(metrics).toMatch(/^mail_queue_messages\{status="dead"\} 1$/m);
    expect(metrics).toMatch(/^mail_queue_messages\{status="pending"\} 1$/m);
  });
});

describe.runIf(embeddedPass)('a SIGKILL between the sign-up commit and the send', () => {
  it('sends the queued mail once after the restart', async () => {
    const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-mail-crash-')));
    const smtp = new FakeSmtp();
    try {
      const smtpUrl = await smtp.start();
      const port = String(await freePort());
      // The dashboard's forms are accepted from the public origin only.
      const env = {
        DATA_DIR: dir,
        ADMIN_TOKEN,
        SECRETS_KEY,
        SMTP_URL: smtpUrl,
        SANDBOX_QUICKSTART: 'off',
        WEBHOOK_DISPATCHER: 'off',
        PORT: port,
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      };
      // The first server queues but never sends (no mail worker), as if it died right after the commit.
      const server = await spawnServer({ ...env, MAIL_POLL_MS: '0' });
      const email = newEmail('crash');
      expect((await signUp(server.url, email)).status).toBe(200);
      server.child.kill('SIGKILL');
      await server.exited;
      expect(smtp.received).toEqual([]);

      const restarted = await spawnServer({ ...env, MAIL_POLL_MS: '100' });
      await until(
        'the mail after the restart',
        async () => smtp.received.some((m) => m.to.includes(email)),
        30_000,
      );
      // A few more polls: nothing is sent twice.
      await new Promise((r) => setTimeout(r, 500));
      restarted.child.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);
      expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
      const db = await openDatabase(loadConfig({ DATA_DIR: dir }).database);
      try {
        expect(
          await db.query('select status, attempts from mail_queue where to_address = $1', [email]),
        ).toEqual([{ status: 'sent', attempts: 1 }]);
      } finally {
        await db.close();
      }
    } finally {
      await smtp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
