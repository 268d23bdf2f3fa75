import { PartnerClient } from '@partner-platform/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { allApps } from '../../helpers/accounts-read.ts';
import {
  csrfOf,
  dashboardKey,
  newEmail,
  PASSWORD,
  verifiedOwner,
  WebClient,
} from '../../helpers/web.ts';

describe('dashboard security: CSRF, partners kept apart, hostile forms', () => {
  let p: TestPlatform;
  let a: WebClient;
  let b: WebClient;
  let aKey: Awaited<ReturnType<typeof dashboardKey>>;
  let aOrderId: string;
  let aReference: string;

  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    ({ web: a } = await verifiedOwner(p, newEmail('a'), 'Partner A'));
    ({ web: b } = await verifiedOwner(p, newEmail('b'), 'Partner B'));
    aKey = await dashboardKey(a, 'A app');
    const client = new PartnerClient({
      apiKey: aKey.apiKey,
      signingSecret: aKey.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
    });
    const body = orderBody();
    aReference = body.order_reference;
    const created = await client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
    aOrderId = created.body.data.order_details.order_id;
  });
  afterAll(async () => {
    await p?.close();
  });

  /** Every partner's apps, as operators list them. */
  const keysOf = async (appId: string): Promise<Array<{ revoked_at: string | null }>> =>
    (await p.admin('GET', `/apps/${appId}/keys`)).body.keys;
  const apps = async () => (await allApps(p)).length;

  it('refuses a state change without the token, with a wrong one, or from another site (403, nothing changed)', async () => {
    const before = await apps();
    const token = csrfOf((await a.get('/dashboard/apps')).text);
    const attempts = [
      await a.post('/dashboard/apps', { name: 'no token' }),
      await a.post('/dashboard/apps', { name: 'wrong token', _csrf: `${token.slice(0, -2)}xx` }),
      await a.post(
        '/dashboard/apps',
        { name: 'other site', _csrf: token },
        { origin: 'https://evil.example' },
      ),
      await a.post(
        '/dashboard/apps',
        { name: 'other site', _csrf: token },
        { 'sec-fetch-site': 'cross-site' },
      ),
      // Another member's token is not this session's.
      await a.post('/dashboard/apps', {
        name: 'borrowed',
        _csrf: csrfOf((await b.get('/dashboard/apps')).text),
      }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.text).toMatch(/refused|expired/);
    }
    expect(await apps()).toBe(before);
    // Signed-out forms too: sign-in without the form cookie's token.
    expect(
      (await new WebClient(p).post('/sign-in', { email: 'x@example.com', password: PASSWORD }))
        .status,
    ).toBe(403);
  });

  it('never shows or changes partner A’s app, key or order to partner B, whatever the URL', async () => {
    const token = csrfOf((await b.get('/dashboard/apps')).text);
    expect((await b.get(`/dashboard/apps/${aKey.appId}`)).status).toBe(404);
    expect((await b.post(`/dashboard/apps/${aKey.appId}/keys`, { _csrf: token })).status).toBe(404);
    expect(
      (await b.post(`/dashboard/apps/${aKey.appId}/keys/${aKey.keyId}/revoke`, { _csrf: token }))
        .status,
    ).toBe(404);
    expect(
      (
        await b.post(`/dashboard/apps/${aKey.appId}/webhook`, {
          _csrf: token,
          webhook_url: 'https://evil.example/hook',
        })
      ).status,
    ).toBe(404);
    expect(
      (await b.post(`/dashboard/apps/${aKey.appId}/webhook-secret`, { _csrf: token })).status,
    ).toBe(404);
    const order = await b.get(`/dashboard/orders/${aOrderId}`);
    expect(order.status).toBe(404);
    expect(order.text).not.toContain(aReference);
    const search = (await b.get(`/dashboard/orders?q=${encodeURIComponent(aReference)}`)).text;
    expect(search).toContain('No order matches');
    expect(search).not.toContain(aOrderId);
    expect((await b.get('/dashboard/apps')).text).not.toContain(aKey.appId);
    expect(await keysOf(aKey.appId)).toHaveLength(1);
    const every = await allApps(p);
    for (const app of every)
      expect((await keysOf(app.app_id)).filter((k) => k.revoked_at !== null)).toEqual([]);
    expect(every.filter((app) => app.webhook_url !== null)).toEqual([]);
    // Partner A sees its own.
    expect((await a.get(`/dashboard/orders/${aOrderId}`)).text).toContain(aReference);
  });

  it('answers hostile forms (control characters, NUL, huge values, wrong types) with a 4xx page and changes nothing', async () => {
    const web = new WebClient(p);
    const token = csrfOf((await web.get('/sign-up')).text);
    const partners = await countRows(p, 'select count(*)::int as n from partners');
    const cases: Array<[Record<string, string> | Buffer, string, number]> = [
      [
        { partner_name: 'Nul\u0000Foods', email: newEmail(), password: PASSWORD },
        'application/x-www-form-urlencoded',
        400,
      ],
      [
        { partner_name: 'Bell\u0007', email: newEmail(), password: PASSWORD },
        'application/x-www-form-urlencoded',
        400,
      ],
      [
        { partner_name: 'Line\nBreak', email: newEmail(), password: PASSWORD },
        'application/x-www-form-urlencoded',
        400,
      ],
      [
        { partner_name: 'x'.repeat(5000), email: newEmail(), password: PASSWORD },
        'application/x-www-form-urlencoded',
        400,
      ],
      [
        { partner_name: 'Huge', email: newEmail(), password: 'p'.repeat(40_000) },
        'application/x-www-form-urlencoded',
        413,
      ],
      [{ partner_name: 'Json', email: newEmail(), password: PASSWORD }, 'application/json', 415],
      [
        Buffer.from([0x5f, 0x63, 0x73, 0x72, 0x66, 0x3d, 0xc3, 0x28]),
        'application/x-www-form-urlencoded',
        400,
      ],
    ];
    for (const [fields, type, status] of cases) {
      const body = Buffer.isBuffer(fields)
        ? fields
        : new URLSearchParams({ _csrf: token, ...fields }).toString();
      const res = await web.request('POST', '/sign-up', {
        body,
        headers: { 'content-type': type, origin: p.url },
      });
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toMatch(/class="error"/);
    }
    expect(await countRows(p, 'select count(*)::int as n from partners')).toBe(partners);
  });

  it('never fails with a 5xx on arbitrary form values, and stores app names exactly when it accepts them', async () => {
    const token = csrfOf((await a.get('/dashboard/apps')).text);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 120 }), async (name) => {
        const res = await a.post('/dashboard/apps', { _csrf: token, name });
        expect(res.status).toBeLessThan(500);
        if (res.status === 200)
          expect(
            (await allApps(p)).filter((app) => app.name === name.trim()).length,
          ).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });

  it('serves pages with the strict policy, nothing cached, and assets cached for a year', async () => {
    const page = await a.get('/dashboard');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).not.toMatch(/<script>|style="/);
    const css = /href="(\/assets\/dashboard\.[0-9a-f]{12}\.css)"/.exec(page.text)![1]!;
    const asset = await a.get(css);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await a.get('/assets/dashboard.000000000000.css')).status).toBe(404);
    const cookie = (await new WebClient(p).get('/sign-in')).headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
  });
});
