import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { codeFor, operatorWithToken, PASSWORD } from '../helpers.ts';

let p: TestPlatform;
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
});
afterAll(() => p.close());

describe('operator accounts (bootstrap with the ADMIN_TOKEN)', () => {
  it('creates an operator and never answers the password; emails are unique without case', async () => {
    const res = await p.admin('POST', '/operators', {
      email: 'Kofi.Admin@Example.com',
      name: 'Kofi',
      password: PASSWORD,
      roles: ['admin', 'support', 'admin'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      operator_id: expect.stringMatching(/^opr_/),
      email: 'Kofi.Admin@Example.com',
      roles: ['support', 'admin'],
      active: true,
      totp_confirmed: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    const again = await p.admin('POST', '/operators', {
      email: 'kofi.admin@example.COM',
      name: 'K2',
      password: PASSWORD,
      roles: ['support'],
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('OPERATOR_EMAIL_TAKEN');
  });

  it('refuses a bad email, a short password and unknown roles with VALIDATION_ERROR', async () => {
    for (const body of [
      { email: 'not-an-email', name: 'x', password: PASSWORD, roles: ['support'] },
      { email: 'a\u0000b@example.com', name: 'x', password: PASSWORD, roles: ['support'] },
      { email: 'ok@example.com', name: 'x', password: 'short', roles: ['support'] },
      { email: 'ok@example.com', name: 'x', password: PASSWORD, roles: ['root'] },
      { email: 'ok@example.com', name: 'x', password: PASSWORD, roles: [] },
    ]) {
      const res = await p.admin('POST', '/operators', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('lists, reads and updates operators; unknown ones answer OPERATOR_NOT_FOUND', async () => {
    const op = await operatorWithToken(p, ['support']);
    expect(
      (await p.admin('GET', '/operators')).body.operators.map(
        (o: { operator_id: string }) => o.operator_id,
      ),
    ).toContain(op.id);
    expect((await p.admin('GET', `/operators/${op.id}`)).body.email).toBe(op.email);
    const updated = await p.admin('PATCH', `/operators/${op.id}`, {
      name: 'Ama S.',
      roles: ['support', 'finance'],
    });
    expect(updated.body).toMatchObject({ name: 'Ama S.', roles: ['support', 'finance'] });
    expect((await p.admin('GET', '/operators/opr_nope')).body.code).toBe('OPERATOR_NOT_FOUND');
    expect((await p.admin('PATCH', '/operators/opr_nope', { active: false })).status).toBe(404);
    expect((await p.admin('DELETE', '/operator-tokens/otk_nope')).body.code).toBe(
      'OPERATOR_TOKEN_NOT_FOUND',
    );
    expect((await p.admin('POST', '/operators/opr_nope/tokens', { name: 'x' })).status).toBe(404);
    expect((await p.admin('PATCH', `/operators/${op.id}`, { roles: ['god'] })).status).toBe(400);
  });

  it('never demotes or deactivates the last active admin', async () => {
    const a = await operatorWithToken(p, ['admin']);
    const { body: operators } = await p.admin('GET', '/operators');
    for (const o of operators.operators) {
      if (o.roles.includes('admin') && o.operator_id !== a.id)
        expect(
          (await p.admin('PATCH', `/operators/${o.operator_id}`, { roles: ['support'] })).status,
        ).toBe(200);
    }
    const admins = (await p.admin('GET', '/operators')).body.operators.filter(
      (o: { roles: string[]; active: boolean }) => o.active && o.roles.includes('admin'),
    );
    expect(admins.map((o: { operator_id: string }) => o.operator_id)).toEqual([a.id]);
    for (const change of [{ roles: ['support'] }, { active: false }]) {
      const res = await p.admin('PATCH', `/operators/${a.id}`, change, a.token);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('LAST_ADMIN');
    }
    const b = await operatorWithToken(p, ['admin']);
    // Both demotions at once: exactly one passes.
    const both = await Promise.all([
      p.admin('PATCH', `/operators/${a.id}`, { roles: ['support'] }),
      p.admin('PATCH', `/operators/${b.id}`, { roles: ['support'] }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('operator tokens on the operator API', () => {
  it('authenticate like the ADMIN_TOKEN, which keeps working exactly', async () => {
    const op = await operatorWithToken(p, ['support']);
    expect(op.token).toMatch(/^opt_[\w-]{43}$/);
    expect((await p.admin('GET', '/partners', undefined, op.token)).status).toBe(200);
    expect((await p.admin('GET', '/partners')).status).toBe(200);
    const listed = await p.admin('GET', `/operators/${op.id}/tokens`);
    expect(listed.body.tokens).toEqual([
      expect.objectContaining({
        token_id: op.tokenId,
        token_hint: `opt_…${op.token.slice(-4)}`,
        revoked_at: null,
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(op.token);
  });

  it('refuse no token, a wrong token, a revoked token, an expired token and a deactivated operator (401 INVALID_ADMIN_TOKEN)', async () => {
    const res = await p.fetch(`${p.url}/admin/v1/partners`);
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('INVALID_ADMIN_TOKEN');
    expect((await p.admin('GET', '/partners', undefined, 'opt_wrong')).status).toBe(401);
    const revoked = await operatorWithToken(p, ['support']);
    expect((await p.admin('DELETE', `/operator-tokens/${revoked.tokenId}`)).status).toBe(204);
    expect((await p.admin('GET', '/partners', undefined, revoked.token)).body.code).toBe(
      'INVALID_ADMIN_TOKEN',
    );
    const deactivated = await operatorWithToken(p, ['support']);
    await p.admin('PATCH', `/operators/${deactivated.id}`, { active: false });
    expect((await p.admin('GET', '/partners', undefined, deactivated.token)).status).toBe(401);
    await p.admin('PATCH', `/operators/${deactivated.id}`, { active: true });
    expect((await p.admin('GET', '/partners', undefined, deactivated.token)).status).toBe(200);
    const expiring = await p.admin('POST', `/operators/${deactivated.id}/tokens`, {
      name: 'short',
      expires_at: new Date(now + 60_000).toISOString(),
    });
    expect((await p.admin('GET', '/partners', undefined, expiring.body.token)).status).toBe(200);
    now += 61_000;
    expect((await p.admin('GET', '/partners', undefined, expiring.body.token)).status).toBe(401);
    expect(
      (
        await p.admin('POST', `/operators/${deactivated.id}/tokens`, {
          name: 'past',
          expires_at: new Date(now - 1000).toISOString(),
        })
      ).status,
    ).toBe(400);
  });

  it('hold each operator to their roles (403 FORBIDDEN)', async () => {
    const support = await operatorWithToken(p, ['support']);
    const finance = await operatorWithToken(p, ['finance']);
    const partner = await createPartner(p);
    const as = (token: string, method: string, path: string, body?: unknown) =>
      p.admin(method, path, body, token);
    const forbidden = async (r: Promise<{ status: number; body: { code: string } }>) => {
      const res = await r;
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    };
    await forbidden(
      as(support.token, 'POST', '/operators', {
        email: 'x@example.com',
        name: 'x',
        password: PASSWORD,
        roles: ['admin'],
      }),
    );
    await forbidden(as(support.token, 'GET', '/operators'));
    await forbidden(as(support.token, 'GET', '/audit'));
    await forbidden(as(support.token, 'GET', `/partners/${partner.partnerId}/wallet`));
    await forbidden(
      as(support.token, 'PATCH', `/partners/${partner.partnerId}`, { credit_limit_ghs: 10 }),
    );
    await forbidden(
      as(finance.token, 'PATCH', `/partners/${partner.partnerId}`, { status: 'suspended' }),
    );
    await forbidden(
      as(finance.token, 'POST', `/partners/${partner.partnerId}/apps`, { name: 'x' }),
    );
    await forbidden(as(support.token, 'GET', `/operators/${finance.id}/tokens`));
    await forbidden(as(support.token, 'DELETE', `/operator-tokens/${finance.tokenId}`));
    await forbidden(as(support.token, 'POST', `/operators/${finance.id}/totp`));
    expect(
      (await as(finance.token, 'PATCH', `/partners/${partner.partnerId}`, { credit_limit_ghs: 10 }))
        .body.credit_limit_ghs,
    ).toBe(10);
    expect((await as(finance.token, 'GET', `/partners/${partner.partnerId}/wallet`)).status).toBe(
      200,
    );
    expect(
      (await as(support.token, 'PATCH', `/partners/${partner.partnerId}`, { status: 'suspended' }))
        .body.status,
    ).toBe('suspended');
    // Their own tokens: any operator.
    expect((await as(support.token, 'GET', `/operators/${support.id}`)).status).toBe(200);
    const own = await as(support.token, 'POST', `/operators/${support.id}/tokens`, {
      name: 'second',
    });
    expect(own.status).toBe(201);
    expect(
      (await as(support.token, 'GET', `/operators/${support.id}/tokens`)).body.tokens,
    ).toHaveLength(2);
    expect(
      (await as(support.token, 'DELETE', `/operator-tokens/${own.body.token_id}`)).status,
    ).toBe(204);
  });
});

describe('TOTP enrolment and sign-in', () => {
  it('enrols with a secret shown once, confirmed by a first code; then refuses to enrol again', async () => {
    const op = await operatorWithToken(p, ['support']);
    const early = await p.admin(
      'POST',
      `/operators/${op.id}/totp/confirm`,
      { code: '123456' },
      op.token,
    );
    expect(early.body.code).toBe('TOTP_STATE');
    const enrol = await p.admin('POST', `/operators/${op.id}/totp`, undefined, op.token);
    expect(enrol.status).toBe(201);
    expect(enrol.body.totp_secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrol.body.otpauth_uri).toContain(`secret=${enrol.body.totp_secret}`);
    const wrong = await p.admin(
      'POST',
      `/operators/${op.id}/totp/confirm`,
      { code: '000000' },
      op.token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.details[0].field).toBe('code');
    const ok = await p.admin(
      'POST',
      `/operators/${op.id}/totp/confirm`,
      { code: codeFor(enrol.body.totp_secret, now) },
      op.token,
    );
    expect(ok.body.totp_confirmed).toBe(true);
    expect((await p.admin('POST', `/operators/${op.id}/totp`, undefined, op.token)).body.code).toBe(
      'TOTP_STATE',
    );
    expect((await p.admin('POST', `/operators/opr_nope/totp`)).body.code).toBe(
      'OPERATOR_NOT_FOUND',
    );
  });

  it('authenticates email, password and code together, with one generic error, each code once', async () => {
    const signIn = p.app.platform.operatorSignIn;
    const op = await operatorWithToken(p, ['support']);
    const { body } = await p.admin('POST', `/operators/${op.id}/totp`);
    await p.admin('POST', `/operators/${op.id}/totp/confirm`, {
      code: codeFor(body.totp_secret, now),
    });
    now += 30_000;
    const code = codeFor(body.totp_secret, now);
    const attempt = (
      over: Partial<{ email: string; password: string; code: string; ip: string }>,
    ) =>
      signIn.authenticate({
        email: op.email.toUpperCase(),
        password: PASSWORD,
        code,
        ip: '192.0.2.10',
        ...over,
      });
    for (const bad of [
      { password: 'wrong password!' },
      { code: code === '000000' ? '000001' : '000000' },
      { email: 'nobody@example.com' },
    ]) {
      await expect(attempt(bad)).rejects.toMatchObject({
        statusCode: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'The email, password or code is not right.',
      });
    }
    expect((await attempt({})).id).toBe(op.id);
    // The same code again, within its window: refused.
    await expect(attempt({})).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    now += 30_000;
    await p.admin('PATCH', `/operators/${op.id}`, { active: false });
    await expect(attempt({ code: codeFor(body.totp_secret, now) })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
  });

  it('answers hostile input with the same generic error', async () => {
    const signIn = p.app.platform.operatorSignIn;
    const op = await operatorWithToken(p, ['support']);
    const { body } = await p.admin('POST', `/operators/${op.id}/totp`);
    await p.admin('POST', `/operators/${op.id}/totp/confirm`, {
      code: codeFor(body.totp_secret, now),
    });
    now += 30_000;
    const code = codeFor(body.totp_secret, now);
    for (const bad of [
      { email: `${op.email}\u0000` },
      { password: 'x'.repeat(100_000) },
      { code: '\u0000'.repeat(6) },
      { email: 'y'.repeat(100_000) },
    ]) {
      await expect(
        signIn.authenticate({ email: op.email, password: PASSWORD, code, ip: null, ...bad }),
      ).rejects.toMatchObject({ statusCode: 401, code: 'INVALID_CREDENTIALS' });
    }
  });

  it('throttles per account, counted in the database, whatever the password', async () => {
    const signIn = p.app.platform.operatorSignIn;
    const op = await operatorWithToken(p, ['support']);
    for (let i = 0; i < 5; i++)
      await expect(
        signIn.authenticate({
          email: op.email,
          password: 'wrong password!',
          code: '000000',
          ip: null,
        }),
      ).rejects.toMatchObject({ statusCode: 401 });
    const throttled = signIn.authenticate({
      email: op.email,
      password: PASSWORD,
      code: '000000',
      ip: null,
    });
    await expect(throttled).rejects.toMatchObject({ statusCode: 429, code: 'TOO_MANY_ATTEMPTS' });
    const [row] = await p.app.platform.db.query<{ n: string }>(
      `select count(*) as n from operator_sign_in_failures where subject = $1`,
      [op.email],
    );
    expect(Number(row!.n)).toBe(5);
    now += 15 * 60_000 + 1000;
    await expect(
      signIn.authenticate({ email: op.email, password: PASSWORD, code: '000000', ip: null }),
    ).rejects.toMatchObject({ statusCode: 401 });
  });

  it('throttles per address across accounts', async () => {
    const signIn = p.app.platform.operatorSignIn;
    for (let i = 0; i < 20; i++)
      await expect(
        signIn.authenticate({
          email: `u${i}@example.com`,
          password: 'wrong password!',
          code: '000000',
          ip: '198.51.100.7',
        }),
      ).rejects.toMatchObject({ statusCode: 401 });
    await expect(
      signIn.authenticate({
        email: 'fresh@example.com',
        password: 'x',
        code: '000000',
        ip: '198.51.100.7',
      }),
    ).rejects.toMatchObject({ statusCode: 429 });
  });
});
