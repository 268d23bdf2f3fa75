import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { operatorWithToken } from '../helpers.ts';

let p: TestPlatform;
let support: Awaited<ReturnType<typeof operatorWithToken>>;
let finance: Awaited<ReturnType<typeof operatorWithToken>>;
let revoked: Awaited<ReturnType<typeof operatorWithToken>>;
let deactivated: Awaited<ReturnType<typeof operatorWithToken>>;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  support = await operatorWithToken(p, ['support']);
  finance = await operatorWithToken(p, ['finance']);
  revoked = await operatorWithToken(p, ['admin']);
  deactivated = await operatorWithToken(p, ['admin']);
  await p.admin('DELETE', `/operator-tokens/${revoked.tokenId}`);
  await p.admin('PATCH', `/operators/${deactivated.id}`, { active: false });
});
afterAll(() => p.close());

/** Every route this work added, with a body that would pass validation, and a role it refuses. */
const routes = () => [
  {
    method: 'POST',
    path: '/operators',
    body: { email: 'new@example.com', name: 'N', password: 'a long password', roles: ['support'] },
    refused: support,
  },
  { method: 'GET', path: '/operators', refused: finance },
  { method: 'GET', path: `/operators/${finance.id}`, refused: support },
  { method: 'PATCH', path: `/operators/${finance.id}`, body: { name: 'F' }, refused: support },
  {
    method: 'POST',
    path: `/operators/${finance.id}/tokens`,
    body: { name: 't' },
    refused: support,
  },
  { method: 'GET', path: `/operators/${finance.id}/tokens`, refused: support },
  { method: 'DELETE', path: `/operator-tokens/${finance.tokenId}`, refused: support },
  { method: 'POST', path: `/operators/${finance.id}/totp`, refused: support },
  {
    method: 'POST',
    path: `/operators/${finance.id}/totp/confirm`,
    body: { code: '123456' },
    refused: support,
  },
  { method: 'GET', path: '/audit', refused: support },
  { method: 'POST', path: '/activation-requests/act_x/approve', refused: finance },
  {
    method: 'POST',
    path: '/activation-requests/act_x/reject',
    body: { reason: 'Not enough' },
    refused: finance,
  },
];

describe('every new operator route checks its caller first', () => {
  it("no token, a wrong one, a revoked one and a deactivated operator's answer 401; a role without permission 403", async () => {
    for (const r of routes()) {
      const what = `${r.method} ${r.path}`;
      const bare = await p.fetch(`${p.url}/admin/v1${r.path}`, { method: r.method });
      expect(bare.status, `${what} without a token`).toBe(401);
      for (const token of ['wrong-token', 'opt_guessed', revoked.token, deactivated.token]) {
        const res = await p.admin(r.method, r.path, r.body, token);
        expect([res.status, res.body.code], `${what} with ${token.slice(0, 12)}`).toEqual([
          401,
          'INVALID_ADMIN_TOKEN',
        ]);
      }
      const refused = await p.admin(r.method, r.path, r.body, r.refused.token);
      expect([refused.status, refused.body.code], `${what} as ${r.refused.id}`).toEqual([
        403,
        'FORBIDDEN',
      ]);
    }
  });

  it('answers the remaining errors of the new routes', async () => {
    expect((await p.admin('POST', `/operators/${support.id}/tokens`, {})).status).toBe(400);
    expect((await p.admin('GET', '/operators/opr_nope/tokens')).body.code).toBe(
      'OPERATOR_NOT_FOUND',
    );
    expect(
      (await p.admin('POST', '/operators/opr_nope/totp/confirm', { code: '123456' })).body.code,
    ).toBe('OPERATOR_NOT_FOUND');
    expect(
      (await p.admin('POST', `/operators/${support.id}/totp/confirm`, { code: '' })).status,
    ).toBe(400);
    expect((await p.admin('POST', '/operators', { email: 'x@example.com' })).status).toBe(400);
    expect((await p.admin('PATCH', `/operators/${support.id}`, { extra: 1 })).status).toBe(400);
    expect((await p.admin('GET', '/audit?limit=0')).status).toBe(400);
    expect((await p.admin('GET', '/audit?actor_kind=robot')).status).toBe(400);
    expect(
      (await p.admin('POST', '/activation-requests/act_x/reject', { reason: 'x'.repeat(1001) }))
        .status,
    ).toBe(400);
    for (const hostile of ['bad\u0000reason', 'bad\u0007reason', '\u2028\u2028\u2028']) {
      const res = await p.admin('POST', '/activation-requests/act_x/reject', { reason: hostile });
      expect([res.status, res.body.code], JSON.stringify(hostile)).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
    }
    expect(
      (
        await p.admin('POST', '/operators', {
          email: 'z@example.com',
          name: 'N\u0000',
          password: 'a long password',
          roles: ['support'],
        })
      ).status,
    ).toBe(400);
    expect(
      (await p.admin('POST', `/operators/${support.id}/tokens`, { name: 'n'.repeat(500_000) }))
        .status,
    ).toBe(400);
  });
});
