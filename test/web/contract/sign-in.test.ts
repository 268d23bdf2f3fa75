import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../../src/modules/sessions/index.ts';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { mailTo } from '../../helpers/outbox-read.ts';
import {
  csrfOf,
  mailedLink,
  mailSettled,
  newEmail,
  PASSWORD,
  verifiedOwner,
  WebClient,
} from '../../helpers/web.ts';

describe('dashboard accounts: sign-up, verification, sign-in, reset, sign-out', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(async () => {
    await p?.close();
  });

  it('signs up a partner and its owner, who must verify the email before using the dashboard', async () => {
    const email = newEmail('ama');
    const web = new WebClient(p);
    const done = await web.submit('/sign-up', '/sign-up', {
      email: email.toUpperCase(),
      password: PASSWORD,
      partner_name: 'Ama Foods',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Check your mail');
    const member = await p.app.platform.members.findByEmail(email);
    const membership = member && (await p.app.platform.members.membershipOf(member.id));
    expect(membership).toMatchObject({ role: 'owner' });
    expect(await p.app.platform.accounts.getPartner(membership!.partner_id)).toMatchObject({
      name: 'Ama Foods',
      production_active: false,
    });

    // Unverified: signed in, but only the verify page (and its resend) are there.
    expect((await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD })).status).toBe(
      303,
    );
    const gated = await web.get('/dashboard/apps');
    expect(gated.text).toContain('Verify your email');
    expect(gated.text).not.toContain('New app');
    const resend = await web.submit('/dashboard', '/dashboard/verify-email/resend', {});
    expect(resend.text).toContain('We sent a new link');

    const link = await mailedLink(p, email, '/verify-email');
    expect((await web.get(link)).text).toContain('Email verified');
    // Single use.
    expect((await web.get(link)).status).toBe(400);
    const overview = await web.get('/dashboard');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Ama Foods');
  });

  it('answers the same for an unknown email and a wrong password', async () => {
    const { email } = await verifiedOwner(p);
    const a = await new WebClient(p).submit('/sign-in', '/sign-in', {
      email,
      password: 'wrong password!',
    });
    const b = await new WebClient(p).submit('/sign-in', '/sign-in', {
      email: newEmail('nobody'),
      password: 'wrong password!',
    });
    expect(a.status).toBe(400);
    expect(b.status).toBe(400);
    const message = (t: string) => /<p class="error" role="alert">([^<]+)</.exec(t)?.[1];
    expect(message(a.text)).toBe('The email or password is not right.');
    expect(message(b.text)).toBe(message(a.text));
    // Sign-up with a taken email looks like any sign-up (the owner is mailed instead).
    const again = await new WebClient(p).submit('/sign-up', '/sign-up', {
      email,
      password: PASSWORD,
      partner_name: 'Copycat',
    });
    expect(again.status).toBe(200);
    expect(again.text).toContain('Check your mail');
    expect(
      await countRows(p, "select count(*)::int as n from partners where name = 'Copycat'"),
    ).toBe(0);
  });

  it('gives a new session id at sign-in (no fixation) and stores only its hash', async () => {
    const email = newEmail();
    await verifiedOwner(p, email);
    const web = new WebClient(p);
    web.cookies.set('pp_session', 'attacker-chosen-session-id-0123456789abcdef');
    await web.get('/sign-in');
    const before = new Map(web.cookies);
    expect((await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD })).status).toBe(
      303,
    );
    const session = web.cookies.get('pp_session')!;
    expect(session).not.toBe(before.get('pp_session'));
    expect(session).not.toBe(before.get('pp_form'));
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The pre-sign-in form cookie is gone.
    expect(web.cookies.has('pp_form')).toBe(false);
    expect(
      await countRows(p, 'select count(*)::int as n from web_sessions where id_hash = $1', [
        session,
      ]),
    ).toBe(0);
    expect(
      await countRows(p, 'select count(*)::int as n from web_sessions where id_hash = $1', [
        hashSessionId(session),
      ]),
    ).toBe(1);
    const hostile = new WebClient(p);
    hostile.cookies.set('pp_session', 'attacker-chosen-session-id-0123456789abcdef');
    expect((await hostile.get('/dashboard')).status).toBe(303);
  });

  it('signs out here, and everywhere', async () => {
    const email = newEmail();
    const { web: first } = await verifiedOwner(p, email);
    const second = new WebClient(p);
    await second.submit('/sign-in', '/sign-in', { email, password: PASSWORD });
    expect((await second.get('/dashboard')).status).toBe(200);

    const third = new WebClient(p);
    await third.submit('/sign-in', '/sign-in', { email, password: PASSWORD });
    expect((await third.submit('/dashboard', '/sign-out', {})).location).toBe('/sign-in');
    expect((await third.get('/dashboard')).status).toBe(303);
    expect((await second.get('/dashboard')).status).toBe(200);

    expect((await first.submit('/dashboard', '/sign-out-everywhere', {})).status).toBe(303);
    expect((await second.get('/dashboard')).location).toMatch(/^\/sign-in/);
    expect((await first.get('/dashboard')).location).toMatch(/^\/sign-in/);
  });

  it('resets a forgotten password by mail, with the same answer for unknown emails, and signs out everywhere', async () => {
    const email = newEmail();
    const { web: old } = await verifiedOwner(p, email);
    const stranger = await new WebClient(p).submit('/forgot-password', '/forgot-password', {
      email: newEmail('ghost'),
    });
    const known = await new WebClient(p).submit('/forgot-password', '/forgot-password', {
      email,
    });
    const body = (t: string) =>
      t.replace(/<strong>[^<]*<\/strong>/, '').replace(/value="[^"]*"/g, '');
    expect(body(stranger.text)).toBe(body(known.text));

    const link = await mailedLink(p, email, '/reset-password');
    const web = new WebClient(p);
    expect((await web.submit(link, link, { password: 'short' })).status).toBe(400);
    const reset = await web.submit(link, link, { password: 'a brand new passphrase' });
    expect(reset.location).toBe('/sign-in?reset=1');
    expect((await web.get(link)).status).toBe(400);
    expect((await old.get('/dashboard')).status).toBe(303);
    expect((await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD })).status).toBe(
      400,
    );
    expect(
      (await web.submit('/sign-in', '/sign-in', { email, password: 'a brand new passphrase' }))
        .status,
    ).toBe(303);
  });

  it('slows brute force: the sixth try on an account within 15 minutes is refused, even with the right password', async () => {
    const email = newEmail();
    await verifiedOwner(p, email);
    const web = new WebClient(p);
    for (let i = 0; i < 5; i++)
      expect(
        (await web.submit('/sign-in', '/sign-in', { email, password: `wrong guess ${i}` })).status,
      ).toBe(400);
    const locked = await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-ins');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Unknown emails lock the same way, so a lock reveals nothing.
    const ghost = newEmail('ghost');
    for (let i = 0; i < 5; i++)
      await web.submit('/sign-in', '/sign-in', { email: ghost, password: `wrong guess ${i}` });
    expect(
      (await web.submit('/sign-in', '/sign-in', { email: ghost, password: PASSWORD })).status,
    ).toBe(429);
  });
});

describe('sign-in throttling per client address', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(async () => {
    await p?.close();
  });

  it('refuses every account from an address after 30 failures in 15 minutes, across emails', async () => {
    const { email } = await verifiedOwner(p);
    const web = new WebClient(p);
    for (let i = 0; i < 30; i++)
      expect(
        (
          await web.submit('/sign-in', '/sign-in', {
            email: newEmail(`spray${i}`),
            password: 'Summer2026!!',
          })
        ).status,
      ).toBe(400);
    expect((await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD })).status).toBe(
      429,
    );
    // Without TRUST_PROXY, a forged X-Forwarded-For changes nothing.
    const token = csrfOf((await web.get('/sign-in')).text);
    expect(
      (
        await web.post(
          '/sign-in',
          { _csrf: token, email, password: PASSWORD },
          { 'x-forwarded-for': '198.51.100.9' },
        )
      ).status,
    ).toBe(429);
  });

  it('counts the client behind a trusted proxy (TRUST_PROXY), not the proxy', async () => {
    const proxied = await startPlatform({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const { email } = await verifiedOwner(proxied);
      const web = new WebClient(proxied.url);
      const from = async (address: string, fields: Record<string, string>) => {
        const token = csrfOf((await web.get('/sign-in')).text);
        return web.post('/sign-in', { _csrf: token, ...fields }, { 'x-forwarded-for': address });
      };
      for (let i = 0; i < 30; i++)
        expect(
          (await from('203.0.113.7', { email: newEmail(`spray${i}`), password: 'Summer2026!!' }))
            .status,
        ).toBe(400);
      expect((await from('203.0.113.7', { email, password: PASSWORD })).status).toBe(429);
      expect((await from('198.51.100.9', { email, password: PASSWORD })).status).toBe(303);
    } finally {
      await proxied.close();
    }
    // 32 sign-ins, each hashing a password on purpose: a busy machine needs more than the default.
  }, 90_000);
});

describe('dashboard mail is capped per address', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(async () => {
    await p?.close();
  });

  it('mails at most 5 reset links an hour to one address, answering the same past the cap', async () => {
    const { email } = await verifiedOwner(p);
    const answers = new Set<string>();
    for (let i = 0; i < 7; i++) {
      const res = await new WebClient(p).submit('/forgot-password', '/forgot-password', {
        email,
      });
      answers.add(res.text.replace(/value="[^"]*"/g, ''));
    }
    expect(answers.size).toBe(1);
    await mailSettled(p);
    expect((await mailTo(p, email)).filter((m) => m.subject.startsWith('Reset'))).toHaveLength(5);
  });

  it('refuses a sixth verification resend within the hour with a clear message', async () => {
    const email = newEmail();
    const web = new WebClient(p);
    await web.submit('/sign-up', '/sign-up', {
      email,
      password: PASSWORD,
      partner_name: 'Resend Ltd',
    });
    await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD });
    for (let i = 0; i < 4; i++)
      expect((await web.submit('/dashboard', '/dashboard/verify-email/resend', {})).status).toBe(
        200,
      );
    const capped = await web.submit('/dashboard', '/dashboard/verify-email/resend', {});
    expect(capped.status).toBe(429);
    expect(capped.text).toContain('several links this hour');
  });
});
