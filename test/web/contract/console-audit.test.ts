import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';

describe('the audit log in the console', () => {
  let p: TestPlatform;
  let now = Date.now();
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = async (roles: OperatorRole[]) =>
    (await signedInOperator(p, roles, () => (now += TOTP_STEP_MS))).web;

  it('is for admins: support gets 403 and no link', async () => {
    const web = await signedIn(['support']);
    expect((await web.get('/console/activation')).text).not.toContain('/console/audit');
    expect((await web.get('/console/audit')).status).toBe(403);
  });

  it('filters by actor, action, target and day, newest first, in keyset pages that neither repeat nor skip', async () => {
    const { audit } = p.app.platform;
    for (let i = 0; i < 120; i++) {
      now += 1000;
      await audit.record({
        actor: { kind: 'operator', id: i % 2 ? 'opr_ODD' : 'opr_EVEN' },
        action: 'test.paging',
        target: { type: 'thing', id: `thg_${String(i).padStart(3, '0')}` },
      });
    }
    const web = await signedIn(['admin']);
    const ids = (html: string) =>
      [...html.matchAll(/on thing <code>(thg_\d{3})<\/code>/g)].map((m) => m[1]!);
    const seen: string[] = [];
    let path: string | undefined = '/console/audit?action=test.paging&actor=opr_ODD';
    while (path) {
      const res = await web.get(path);
      expect(res.status).toBe(200);
      seen.push(...ids(res.text));
      path = /<a href="([^"]+)">Older entries<\/a>/.exec(res.text)?.[1]?.replaceAll('&amp;', '&');
    }
    const odd = Array.from({ length: 60 }, (_, i) => `thg_${String(119 - 2 * i).padStart(3, '0')}`);
    expect(seen).toEqual(odd);
    const one = await web.get('/console/audit?target=thg_007');
    expect(ids(one.text)).toEqual(['thg_007']);
    const today = new Date(now).toISOString().slice(0, 10);
    expect(
      ids((await web.get(`/console/audit?action=test.paging&from=${today}&to=${today}`)).text)
        .length,
    ).toBeGreaterThan(0);
    expect(ids((await web.get('/console/audit?action=test.paging&to=2000-01-01')).text)).toEqual(
      [],
    );
  });

  it('answers bad dates, a forged cursor and hostile input with a message, never a 5xx', async () => {
    const web = await signedIn(['admin']);
    const badDay = await web.get('/console/audit?from=yesterday');
    expect(badDay.status).toBe(400);
    expect(badDay.text).toContain('Dates are days written YYYY-MM-DD (UTC).');
    expect((await web.get('/console/audit?cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
    for (const q of [
      'actor=%00',
      'action=%E2%80%AE%07',
      `target=${'x'.repeat(5000)}`,
      'action[]=a&action[]=b',
      'from=2026-13-45',
      "actor='%20or%201=1--",
    ]) {
      const res = await web.get(`/console/audit?${q}`);
      expect(res.status, q).toBeLessThan(500);
    }
  });
});
