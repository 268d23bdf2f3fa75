import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../../src/integrations/mail/index.ts';
import { FakeSmtp } from '../../fakes/smtp.ts';
import { networkAddress, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { allMail } from '../../helpers/outbox-read.ts';
import { mailSettled, newEmail, PASSWORD, WebClient } from '../../helpers/web.ts';

/** Quoted-printable soft line breaks and =3D undone, so that links can be read from the raw message. */
const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('mail through SMTP (SMTP_URL set)', () => {
  const smtp = new FakeSmtp();
  let url: string;
  let p: TestPlatform | undefined;
  beforeAll(async () => {
    url = await smtp.start();
  });
  afterAll(async () => {
    await p?.close();
    await smtp.close();
  });

  it('hands a message to the server with its sender, recipient, subject and text, logging in with the URL’s credentials', async () => {
    const mailer = new SmtpMailer(url, 'Partner Platform <no-reply@partners.example.gh>');
    await mailer.send({
      to: 'ama@example.com',
      subject: 'Hello Ama',
      text: 'Akwaaba!\nSecond line.',
    });
    mailer.close();
    const mail = smtp.received.at(-1)!;
    expect(mail.from).toBe('no-reply@partners.example.gh');
    expect(mail.to).toEqual(['ama@example.com']);
    expect(mail.user).toBe('tester');
    expect(mail.raw).toMatch(/^Subject: Hello Ama\r?$/m);
    expect(mail.raw).toContain('Akwaaba!');
    expect(mailer.summary).not.toContain('secret');
  });

  it('sends the sign-up verification through it, and keeps no development outbox', async () => {
    p = await startPlatform({
      env: { SMTP_URL: url, MAIL_FROM: 'Partners <partners@example.gh>' },
    });
    const email = newEmail();
    const before = smtp.received.length;
    await new WebClient(p).submit('/sign-up', '/sign-up', {
      email,
      password: PASSWORD,
      partner_name: 'SMTP Foods',
    });
    await mailSettled(p);
    const mail = smtp.received.slice(before).find((m) => m.to.includes(email))!;
    expect(mail.from).toBe('partners@example.gh');
    const link = /http:\/\/127\.0\.0\.1:\d+\/verify-email\/[A-Za-z0-9_-]{43}/.exec(
      unfold(mail.raw),
    )![0];
    expect((await fetch(link)).status).toBe(200);
    expect((await p.fetch(`${p.url}/dev/mail`)).status).toBe(404);
    expect(p.app.platform.mail.outbox).toBeUndefined();
  });
});

describe('mail without SMTP: the development outbox', () => {
  let p: TestPlatform;
  const lines: string[] = [];
  beforeAll(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    p = await startPlatform({ env: { LOG_LEVEL: 'info' }, logStream });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('keeps each message at /dev/mail and logs its link at info level', async () => {
    const email = newEmail();
    await new WebClient(p).submit('/sign-up', '/sign-up', {
      email,
      password: PASSWORD,
      partner_name: 'Outbox <b>Foods</b>',
    });
    await mailSettled(p);
    const list = await (await p.fetch(`${p.url}/dev/mail`)).text();
    const id = new RegExp(
      `href="/dev/mail/(mail_[0-9A-Z]{26})">Verify your email[^<]*</a><div class="muted">to ${email.replace('.', '\\.')}`,
    ).exec(list)![1]!;
    const page = await p.fetch(`${p.url}/dev/mail/${id}`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toMatch(
      /<a href="http:\/\/127\.0\.0\.1:\d+\/verify-email\/[A-Za-z0-9_-]{43}">/,
    );
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.mail === id);
    expect(logged).toMatchObject({ level: 30, to: email, link: `${p.url}/dev/mail/${id}` });
    expect(lines.some((l) => l.includes('development outbox at'))).toBe(true);
    expect((await p.fetch(`${p.url}/dev/mail/mail_00000000000000000000000000`)).status).toBe(404);
  });
});

describe('the development outbox on an address others can reach', () => {
  const platforms: TestPlatform[] = [];
  afterAll(async () => {
    await Promise.all(platforms.map((p) => p.close()));
  });

  /** A server listening on every address: `local` calls it over loopback, `remote` from the machine's network address. */
  async function start(env: Record<string, string>) {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    const p = await startPlatform({
      env: { LOG_LEVEL: 'warn', PUBLIC_BASE_URL: 'https://partners.example.gh', ...env },
      logStream,
      listenHost: '0.0.0.0',
    });
    platforms.push(p);
    const port = new URL(p.url).port;
    return {
      p,
      lines,
      local: `http://127.0.0.1:${port}`,
      remote: `http://${networkAddress()}:${port}`,
    };
  }

  it('answers only this machine (the socket, never a header), whatever PUBLIC_BASE_URL says, and the start warns that mail is not sent', async () => {
    const { p, lines, local, remote } = await start({});
    await p.app.platform.mailQueue.send(p.app.platform.db, {
      to: newEmail(),
      subject: 'Reset your password',
      text: 'A link',
    });
    await mailSettled(p);
    const id = (await allMail(p))[0]!.id;
    // From another address: as if the pages did not exist, the list and each message alike.
    expect((await fetch(`${remote}/dev/mail`)).status).toBe(404);
    expect((await fetch(`${remote}/dev/mail/${id}`)).status).toBe(404);
    // A header cannot make a request local; a request relayed by a proxy on this machine is refused too.
    expect(
      (await fetch(`${remote}/dev/mail`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status,
    ).toBe(404);
    expect(
      (await fetch(`${local}/dev/mail`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status,
    ).toBe(404);
    expect(
      (await fetch(`${local}/dev/mail`, { headers: { forwarded: 'for=203.0.113.9' } })).status,
    ).toBe(404);
    // This machine reads it.
    expect(await (await fetch(`${local}/dev/mail`)).text()).toContain('Reset your password');
    expect((await fetch(`${local}/dev/mail/${id}`)).status).toBe(200);
    expect(
      lines.some(
        (l) =>
          l.includes('SMTP_URL is unset') &&
          l.includes('/dev/mail is not served to other machines'),
      ),
    ).toBe(true);
  });

  it('is served to anyone with DEV_MAIL_PAGE=on (a demo), with a loud warning', async () => {
    const { remote, lines } = await start({ DEV_MAIL_PAGE: 'on' });
    expect((await fetch(`${remote}/dev/mail`)).status).toBe(200);
    expect(lines.some((l) => l.includes('DEV_MAIL_PAGE=on'))).toBe(true);
  });

  it('is never served with DEV_MAIL_PAGE=off, even on this machine', async () => {
    const { local } = await start({
      DEV_MAIL_PAGE: 'off',
      PUBLIC_BASE_URL: 'http://localhost:8080',
    });
    expect((await fetch(`${local}/dev/mail`)).status).toBe(404);
  });
});
