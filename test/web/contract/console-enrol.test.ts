import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { consoleSignIn, OPERATOR_PASSWORD } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, WebClient } from '../../helpers/web.ts';
import { codeFor } from '../../operators/helpers.ts';

const STEP = 30_000;

describe('TOTP enrolment in the console', () => {
  let p: TestPlatform;
  let now = Date.now();
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
  });
  afterAll(async () => {
    await p?.close();
  });

  const newOperator = async (tag: string) => {
    const email = `enrol.${tag}.${Date.now().toString(36)}@example.com`;
    const row = await p.app.platform.operators.create({
      email,
      name: 'Abena Ops',
      password: OPERATOR_PASSWORD,
      roles: ['support'],
    });
    return { id: row.id, email };
  };
  const confirmed = async (id: string) =>
    (
      await p.app.platform.db.query<{ totp_confirmed: boolean }>(
        'select totp_confirmed from operators where id = $1',
        [id],
      )
    )[0]!.totp_confirmed;

  it('password, then the secret shown once, a wrong code refused, the right code confirms; the enrolment session opens no page; then a normal sign-in', async () => {
    const op = await newOperator('happy');
    const web = new WebClient(p);
    const started = await web.submit('/console/enrol', '/console/enrol', {
      email: op.email,
      password: OPERATOR_PASSWORD,
    });
    expect(started.status).toBe(200);
    expect(started.headers.get('cache-control')).toContain('no-store');
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(started.text)![1]!;
    expect(started.text).toMatch(/otpauth:\/\/totp\//);
    // Before the code is confirmed the session is worth nothing: every page sends to sign-in.
    for (const path of ['/console/activation', '/console/partners', '/console/orders']) {
      const res = await web.get(path);
      expect(res.status, path).toBe(303);
      expect(res.location).toBe('/console/sign-in');
    }
    const csrf = csrfOf(started.text);
    const wrong = await web.post('/console/enrol/confirm', {
      _csrf: csrf,
      code: codeFor(secret, now) === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('not the current one');
    expect(wrong.text).not.toContain(secret);
    expect(await confirmed(op.id)).toBe(false);
    expect((await web.post('/console/enrol/confirm', { code: codeFor(secret, now) })).status).toBe(
      403,
    );
    const ok = await web.post('/console/enrol/confirm', {
      _csrf: csrf,
      code: codeFor(secret, now),
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/console/sign-in?enrolled=1');
    expect(await confirmed(op.id)).toBe(true);
    expect(
      (await audited(p, { action: 'operator.totp_confirm', target_id: op.id })).map((e) => ({
        actor_id: e.actor.id,
      })),
    ).toEqual([{ actor_id: op.id }]);
    // The enrolment session ended; confirming again or still using it opens nothing.
    expect(
      (await web.post('/console/enrol/confirm', { _csrf: csrf, code: codeFor(secret, now) }))
        .location,
    ).toBe('/console/enrol');
    expect((await web.get('/console/activation')).status).toBe(303);
    now += STEP;
    const signedIn = await consoleSignIn(p, { ...op, secret }, now);
    expect(signedIn.res.location).toBe('/console/activation');
  });

  it('refuses a wrong password, an operator already enrolled and hostile input with 4xx and no secret', async () => {
    const op = await newOperator('wrong');
    const web = new WebClient(p);
    const bad = await web.submit('/console/enrol', '/console/enrol', {
      email: op.email,
      password: 'not the password',
    });
    expect(bad.status).toBe(401);
    expect(bad.text).not.toContain('totp-secret');
    expect(
      await p.app.platform.db.query('select totp_secret_sealed from operators where id = $1', [
        op.id,
      ]),
    ).toEqual([{ totp_secret_sealed: null }]);
    const hostile = await web.submit('/console/enrol', '/console/enrol', {
      email: 'a\u0000@example.com',
      password: 'x'.repeat(5000),
    });
    expect(hostile.status).toBeGreaterThanOrEqual(400);
    expect(hostile.status).toBeLessThan(500);
    const enrolled = await newOperator('done');
    const { secret } = await p.app.platform.operatorSignIn.enrolTotp(enrolled.id);
    await p.app.platform.operatorSignIn.confirmTotp(enrolled.id, codeFor(secret, now));
    const again = await web.submit('/console/enrol', '/console/enrol', {
      email: enrolled.email,
      password: OPERATOR_PASSWORD,
    });
    expect(again.status).toBe(401);
    expect(again.text).not.toContain('totp-secret');
    expect(
      (await web.post('/console/enrol', { email: op.email, password: OPERATOR_PASSWORD })).status,
    ).toBe(403);
  });
});
