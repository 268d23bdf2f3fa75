import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errors } from '../../../src/platform/errors.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { signedInCourier } from '../../helpers/courier.ts';
import type { WebClient } from '../../helpers/web.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

const send = (
  web: WebClient,
  csrf: string | undefined,
  action: unknown,
  headers: Record<string, string> = {},
) =>
  web.request('POST', '/courier/actions', {
    body: JSON.stringify(action),
    headers: {
      'content-type': 'application/json',
      origin: web.base,
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
      ...headers,
    },
  });
const ACCRA = { lat: 5.6037, lng: -0.187 };
const duty = (on: boolean) => ({
  id: randomUUID(),
  kind: 'duty',
  at: new Date().toISOString(),
  payload: { on_duty: on },
});

describe('the courier app action endpoint', () => {
  it('applies an action once: a replay is answered already_applied and changes nothing more', async () => {
    const { web, id, csrf } = await signedInCourier(p);
    const on = duty(true);
    expect(JSON.parse((await send(web, csrf, on)).text)).toEqual({ id: on.id, result: 'applied' });
    expect((await p.app.platform.couriers.get(id)).on_duty).toBe(true);
    const off = duty(false);
    await send(web, csrf, off);
    // The first action replayed (from the phone's queue) does not turn duty back on.
    expect(JSON.parse((await send(web, csrf, on)).text)).toEqual({
      id: on.id,
      result: 'already_applied',
    });
    expect((await p.app.platform.couriers.get(id)).on_duty).toBe(false);
    expect(await p.app.platform.courierActions.history(id)).toHaveLength(2);
  });

  it('keeps the newest position when an older report arrives late', async () => {
    const { web, id, csrf } = await signedInCourier(p);
    const newer = {
      id: randomUUID(),
      kind: 'position',
      at: new Date(Date.now() - 1000).toISOString(),
      payload: ACCRA,
    };
    const older = {
      id: randomUUID(),
      kind: 'position',
      at: new Date(Date.now() - 60_000).toISOString(),
      payload: { lat: 5.55, lng: -0.2 },
    };
    expect(JSON.parse((await send(web, csrf, newer)).text).result).toBe('applied');
    expect(JSON.parse((await send(web, csrf, older)).text).result).toBe('applied');
    const row = await p.app.platform.couriers.get(id);
    expect([row.last_lat, row.last_lng]).toEqual([ACCRA.lat, ACCRA.lng]);
    // A replayed report changes nothing, and position reports are never kept as action records
    // (one every 15 s per courier would grow the table without end).
    expect(JSON.parse((await send(web, csrf, newer)).text).result).toBe('applied');
    expect(await p.app.platform.courierActions.history(id)).toEqual([]);
  });

  it('refuses, with a reason, an unknown kind, a bad payload and a position outside Ghana; a replay gets the same answer', async () => {
    const { web, csrf } = await signedInCourier(p);
    const unknown = {
      id: randomUUID(),
      kind: 'teleport',
      at: new Date().toISOString(),
      payload: {},
    };
    expect(JSON.parse((await send(web, csrf, unknown)).text)).toEqual({
      id: unknown.id,
      result: 'refused',
      reason: 'There is no action teleport.',
    });
    const bad = {
      id: randomUUID(),
      kind: 'duty',
      at: new Date().toISOString(),
      payload: { on_duty: 'yes' },
    };
    expect(JSON.parse((await send(web, csrf, bad)).text)).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('on_duty'),
    });
    const abroad = {
      id: randomUUID(),
      kind: 'position',
      at: new Date().toISOString(),
      payload: { lat: 51.5, lng: -0.12 },
    };
    const first = JSON.parse((await send(web, csrf, abroad)).text);
    expect(first).toMatchObject({ result: 'refused', reason: expect.stringContaining('Ghana') });
    expect(JSON.parse((await send(web, csrf, abroad)).text)).toEqual(first);
  });

  it('answers malformed requests with a 4xx and records nothing', async () => {
    const { web, id, csrf } = await signedInCourier(p);
    expect(
      (await send(web, csrf, { id: 'not-a-uuid', kind: 'duty', at: new Date().toISOString() }))
        .status,
    ).toBe(400);
    expect((await send(web, csrf, { ...duty(true), at: 'soon' })).status).toBe(400);
    expect(
      (
        await web.request('POST', '/courier/actions', {
          body: '{"id":',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await web.request('POST', '/courier/actions', {
          body: 'id=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await web.request('POST', '/courier/actions', {
          body: 'x'.repeat(40_000),
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        })
      ).status,
    ).toBe(413);
    expect(await p.app.platform.courierActions.history(id)).toHaveLength(0);
  });

  it('needs the session and its CSRF token, from our own origin', async () => {
    const { web, id, csrf } = await signedInCourier(p);
    expect((await send(web, undefined, duty(true))).status).toBe(403);
    expect((await send(web, 'wrong-token', duty(true))).status).toBe(403);
    expect((await send(web, csrf, duty(true), { origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect((await send(web, csrf, duty(true), { 'sec-fetch-site': 'cross-site' })).status).toBe(
      403,
    );
    const stranger = await signedInCourier(p, 'Other Courier');
    expect((await send(web, stranger.csrf, duty(true))).status).toBe(403);
    web.cookies.delete('pp_courier');
    expect((await send(web, csrf, duty(true))).status).toBe(401);
    expect((await p.app.platform.couriers.get(id)).on_duty).toBe(false);
  });

  it('answers 503, not 500, when the database is busy or a deadlock ended the statement, and applies the action sent again', async () => {
    const { web, id, csrf } = await signedInCourier(p);
    // What the database layer throws once a pooled connection stays busy for 3 s (the soak's bursts).
    const busy = vi
      .spyOn(p.app.platform.couriers, 'setDuty')
      .mockRejectedValueOnce(errors.serviceUnavailable('The database is busy right now.'));
    const on = duty(true);
    const refused = await send(web, csrf, on);
    busy.mockRestore();
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('nothing was changed. Try again in a moment.');
    // The phone keeps the action queued and sends it again: it is applied then.
    expect(JSON.parse((await send(web, csrf, on)).text)).toEqual({ id: on.id, result: 'applied' });
    expect((await p.app.platform.couriers.get(id)).on_duty).toBe(true);
  });

  it('lets another module register a kind that receives the action id, without changing the endpoint', async () => {
    const seen: string[] = [];
    p.app.platform.courierActions.register(
      'test_ping',
      async ({ actionId }) => void seen.push(actionId),
    );
    const { web, csrf } = await signedInCourier(p);
    const ping = { id: randomUUID(), kind: 'test_ping', at: new Date().toISOString(), payload: {} };
    await send(web, csrf, ping);
    await send(web, csrf, ping);
    expect(seen).toEqual([ping.id]);
    expect(() => p.app.platform.courierActions.register('duty', async () => {})).toThrow(
      /already registered/,
    );
  });

  it('serves the PWA files: manifest, icon and the service worker with the app shell', async () => {
    const manifest = await p.fetch(`${p.url}/courier/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toContain('application/manifest+json');
    expect(await manifest.json()).toMatchObject({
      start_url: '/courier/',
      scope: '/courier/',
      display: 'standalone',
    });
    expect((await p.fetch(`${p.url}/courier/icon.svg`)).headers.get('content-type')).toContain(
      'image/svg+xml',
    );
    const sw = await (await p.fetch(`${p.url}/courier/sw.js`)).text();
    expect(sw).toContain('"/courier/"');
    expect(sw).toMatch(/\/assets\/courier\.[0-9a-f]{12}\.js/);
    const { web } = await signedInCourier(p);
    const home = await web.get('/courier/');
    expect(home.headers.get('content-security-policy')).toContain("manifest-src 'self'");
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(home.text).not.toMatch(/<script>|<style|style="/);
  });
});
