import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited as readAudit } from '../../helpers/audit.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { allApps } from '../../helpers/accounts-read.ts';
import { signedInCourier } from '../../helpers/courier.ts';
import { dashboardKey, verifiedOwner, type WebClient } from '../../helpers/web.ts';

/** Every POST route of the platform, read from Fastify's own route tree (so a new form is covered the day it is added). */
function postRoutes(p: TestPlatform): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of p.app.printRoutes({ commonPrefix: false, method: 'POST' }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const segment = line.slice(at + 4).replace(/ \(POST\)$/, '');
    stack.length = depth;
    stack.push(segment);
    if (line.endsWith('(POST)')) paths.push(stack.join(''));
  }
  return paths;
}

// Pages people post to from a browser: the partner's (dashboard and its public forms) and the operators'.
const WEB_FORM = /^\/(dashboard|console|courier|sign-|forgot-password|reset-password|invitations)/;

describe('CSRF on every web form', () => {
  let p: TestPlatform;
  let owner: WebClient;
  let operator: WebClient;
  let courier: WebClient;
  const ids: Record<string, string> = {};
  let now = Date.now();
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    owner = (await verifiedOwner(p)).web;
    const key = await dashboardKey(owner);
    ids.appId = key.appId;
    ids.keyId = key.keyId;
    // The owner: the only member.
    const { partner_id } = (await p.app.platform.accounts.getApp(key.appId))!;
    ids.memberId = (await p.app.platform.members.team(partner_id))[0]!.member_id;
    operator = (
      await signedInOperator(p, ['admin', 'finance', 'support'], () => (now += TOTP_STEP_MS))
    ).web;
    courier = (await signedInCourier(p)).web;
  });
  afterAll(async () => {
    await p?.close();
  });

  it('refuses a signed-in POST without the form token, on every route, and changes nothing', async () => {
    const routes = postRoutes(p).filter((r) => WEB_FORM.test(r));
    // The route tree is read right: the forms the other tests use are all here.
    expect(routes).toEqual(
      expect.arrayContaining([
        '/sign-up',
        '/dashboard/apps',
        '/dashboard/apps/:appId/keys',
        '/console/sign-in',
        '/console/orders/:id/status',
        '/courier/sign-in',
        '/courier/actions',
      ]),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        '/sign-up',
        '/dashboard/apps',
        '/dashboard/apps/:appId/keys',
        '/dashboard/orders/upload',
        '/dashboard/apps/:appId/webhooks/replay-selected',
        '/console/sign-in',
        '/console/orders/:id/status',
      ]),
    );
    const audited = async () => (await readAudit(p, {})).length;
    const before = {
      audit: await audited(),
      apps: (await allApps(p)).length,
    };
    const answers: string[] = [];
    for (const route of routes) {
      const path = route.replace(
        /:(\w+)/g,
        (_, name: string) => ids[name] ?? 'x_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      );
      const as = route.startsWith('/console')
        ? operator
        : route.startsWith('/courier')
          ? courier
          : owner;
      const res = await as.post(path, {
        name: 'forged',
        status: 'suspended',
        amount_ghs: '100',
        email: 'forged@example.com',
        reason: 'forged',
      });
      answers.push(`${res.status} ${route}${res.location ? ` → ${res.location}` : ''}`);
    }
    // 403: the token is checked; 404 only where a made-up id is refused first; a redirect only to
    // where the session that step needs begins (the enrolment's confirm step has its own cookie).
    const unexpected = answers.filter(
      (a) =>
        !a.startsWith('403 ') &&
        !(a.startsWith('404 ') && /:(?!appId|keyId|memberId)\w+/.test(a)) &&
        !/^303 \S+ → \/console\/(enrol|sign-in)$/.test(a),
    );
    expect(unexpected).toEqual([]);
    expect(await audited()).toBe(before.audit);
    expect(await allApps(p)).toHaveLength(before.apps);
  });
});
