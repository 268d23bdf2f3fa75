import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../../src/modules/sessions/index.ts';
import { codeFor } from '../../operators/helpers.ts';
import { consoleSignIn, enrolledOperator, OPERATOR_PASSWORD } from '../../helpers/console.ts';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, WebClient } from '../../helpers/web.ts';

const STEP = 30_000;
const alert = (html: string) => /<p class="error" role="alert">([^<]+)</.exec(html)?.[1];

describe('operator console: sign-in, sessions, CSRF, roles', () => {
  let p: TestPlatform;
  let now = Date.now();
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('signs in with email, password and the current code, then shows the queue; sign-out ends the session', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    now += STEP;
    const { web, res } = await consoleSignIn(p, op, now);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/console/activation');
    const queue = await web.get('/console/activation');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain('Activation queue');
    expect(queue.headers.get('content-security-policy')).toContain("script-src 'self'");
    const out = await web.post('/console/sign-out', { _csrf: csrfOf(queue.text) });
    expect(out.location).toBe('/console/sign-in');
    expect((await web.get('/console/activation')).location).toBe('/console/sign-in');
  });

  it('refuses a wrong password, a wrong code and a replayed code with one generic message', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    now += STEP;
    const code = codeFor(op.secret, now);
    const attempt = (password: string, c: string) =>
      new WebClient(p).submit('/console/sign-in', '/console/sign-in', {
        email: op.email,
        password,
        code: c,
      });
    const wrongPassword = await attempt('not the passphrase', code);
    const wrongCode = await attempt(OPERATOR_PASSWORD, code === '000000' ? '111111' : '000000');
    const unknown = await new WebClient(p).submit('/console/sign-in', '/console/sign-in', {
      email: 'nobody@example.com',
      password: OPERATOR_PASSWORD,
      code,
    });
    expect((await attempt(OPERATOR_PASSWORD, code)).status).toBe(303);
    const replayed = await attempt(OPERATOR_PASSWORD, code);
    for (const r of [wrongPassword, wrongCode, unknown, replayed]) {
      expect(r.status).toBe(401);
      expect(alert(r.text)).toBe('The email, password or code is not right.');
      expect(
        r.headers.has('set-cookie') &&
          r.headers.getSetCookie().some((c) => c.startsWith('pp_console=')),
      ).toBe(false);
    }
  });

  it('refuses an operator without a confirmed authenticator, and hostile sign-in input, without a 5xx', async () => {
    const { operators, operatorSignIn } = p.app.platform;
    const email = `unenrolled.${Date.now().toString(36)}@example.com`;
    const row = await operators.create({
      email,
      name: 'Akosua',
      password: OPERATOR_PASSWORD,
      roles: ['admin'],
    });
    await operatorSignIn.enrolTotp(row.id); // started, never confirmed
    const res = await new WebClient(p).submit('/console/sign-in', '/console/sign-in', {
      email,
      password: OPERATOR_PASSWORD,
      code: '123456',
    });
    expect(res.status).toBe(401);
    expect(alert(res.text)).toBe('The email, password or code is not right.');
    expect(res.text).toContain('partner-admin totp enrol');
    for (const fields of [
      { email: 'a\u0000b@example.com' },
      { email: 'x'.repeat(10_000) },
      { code: '1\u00002' },
      { password: '\u0007'.repeat(20) },
      { code: 'x'.repeat(500) },
    ]) {
      const hostile = await new WebClient(p).submit('/console/sign-in', '/console/sign-in', {
        email,
        password: OPERATOR_PASSWORD,
        code: '000000',
        ...fields,
      });
      expect(hostile.status, JSON.stringify(fields).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(hostile.status).toBeLessThan(500);
    }
  });

  it('shows the throttle message after repeated failures', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    let last = { status: 0, text: '' };
    for (let i = 0; i < 6; i++)
      last = await new WebClient(p).submit('/console/sign-in', '/console/sign-in', {
        email: op.email,
        password: 'wrong passphrase',
        code: '000000',
      });
    expect(last.status).toBe(429);
    expect(alert(last.text)).toMatch(/Too many failed sign-ins; try again in \d+ seconds\./);
  });

  it('gives a new session id at sign-in: a planted cookie never becomes a signed-in session', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['admin'], now);
    const web = new WebClient(p);
    const planted = 'attacker-chosen-session-id-0123456789abcdef';
    web.cookies.set('pp_console', planted);
    now += STEP;
    await consoleSignIn(p, op, now, web);
    const session = web.cookies.get('pp_console')!;
    expect(session).not.toBe(planted);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from web_sessions where id_hash = $1 and subject_kind = $2',
        [hashSessionId(session), 'operator'],
      ),
    ).toBe(1);
    const attacker = new WebClient(p);
    attacker.cookies.set('pp_console', planted);
    expect((await attacker.get('/console/activation')).location).toBe('/console/sign-in');
  });

  it('refuses a form without the session token or from another site', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    now += STEP;
    const { web } = await consoleSignIn(p, op, now);
    const page = await web.get('/console/activation');
    const noToken = await web.post('/console/sign-out', {});
    expect(noToken.status).toBe(403);
    const crossSite = await web.post(
      '/console/sign-out',
      { _csrf: csrfOf(page.text) },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    // Still signed in: neither request did anything.
    expect((await web.get('/console/activation')).status).toBe(200);
    const signInNoToken = await new WebClient(p).post('/console/sign-in', {
      email: op.email,
      password: OPERATOR_PASSWORD,
      code: '123456',
    });
    expect(signInNoToken.status).toBe(403);
  });

  it('ends an operator session 12 hours after sign-in, however busy', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    now += STEP;
    const { web, res } = await consoleSignIn(p, op, now);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('pp_console='))).toContain(
      `Max-Age=${12 * 3600}`,
    );
    for (let i = 0; i < 6; i++) {
      now += 1.9 * 3_600_000;
      expect((await web.get('/console/activation')).status).toBe(200);
    }
    now += 0.7 * 3_600_000;
    expect((await web.get('/console/activation')).location).toBe('/console/sign-in');
  });

  it('does not accept a partner member session, nor an operator who was deactivated', async () => {
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    now += STEP;
    const { web } = await consoleSignIn(p, op, now);
    const memberSession = await p.app.platform.sessions.start({
      kind: 'member',
      id: 'mbr_01J0000000000000000000000',
    });
    const asMember = new WebClient(p);
    asMember.cookies.set('pp_console', memberSession.id);
    expect((await asMember.get('/console/activation')).location).toBe('/console/sign-in');
    // One admin must stay active, so deactivating this support operator is allowed.
    await p.app.platform.operators.update(op.id, { active: false });
    expect((await web.get('/console/activation')).location).toBe('/console/sign-in');
  });
});
