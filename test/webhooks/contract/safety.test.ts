import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Destinations } from '../../../src/platform/outbound/destinations.ts';
import { sendWebhook } from '../../../src/modules/webhooks/sender.ts';
import { createPartner, startPlatform } from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { Receiver, until } from '../receiver.ts';

let rx: Receiver;
beforeAll(async () => {
  rx = await new Receiver().start();
});
afterAll(() => rx.close());

const port = () => new URL(rx.url).port;
// The machine's own DNS: `localhost` and the single-label `vm` resolve to loopback here.
const strict = new Destinations(false);
const localForStaging = new Destinations(true);

describe('webhook destination safety', () => {
  it('never connects to loopback or private addresses, by literal or by name, unless staging events may go to local receivers', async () => {
    const urls = [
      `${rx.url}/x`,
      `http://localhost:${port()}/x`,
      `http://vm:${port()}/x`,
      `http://[::ffff:127.0.0.1]:${port()}/x`,
    ];
    for (const gate of [
      strict.gate('production'),
      strict.gate('staging'),
      localForStaging.gate('production'),
    ]) {
      for (const url of urls) {
        const r = await sendWebhook(url, {}, '{}', { timeoutMs: 2000, gate });
        expect(r.statusCode, url).toBeNull();
        expect(r.error, url).toMatch(/is a loopback or private address/);
      }
    }
    expect(rx.received).toHaveLength(0);
    // Staging events may go to a developer's own machine on a development server.
    expect(
      (
        await sendWebhook(`http://vm:${port()}/x`, {}, '{}', {
          timeoutMs: 2000,
          gate: localForStaging.gate('staging'),
        })
      ).statusCode,
    ).toBe(200);
    // The connection that staging event left open is not one a production event may reuse.
    const reused = await sendWebhook(`http://vm:${port()}/x`, {}, '{}', {
      timeoutMs: 2000,
      gate: localForStaging.gate('production'),
    });
    expect(reused.error).toMatch(/is a loopback or private address/);
    expect(rx.received).toHaveLength(1);
  });

  it('does not follow redirects, bounds the wait, and reads a bounded answer', async () => {
    rx.script.set('/redirect', [302]);
    expect(
      (
        await sendWebhook(`${rx.url}/redirect`, {}, '{}', {
          timeoutMs: 2000,
          gate: localForStaging.gate('staging'),
        })
      ).statusCode,
    ).toBe(302);
    const { createServer } = await import('node:http');
    const slow = createServer(() => {});
    const big = createServer((_q, res) => res.end('x'.repeat(500_000)));
    await Promise.all([
      new Promise<void>((r) => slow.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => big.listen(0, '127.0.0.1', r)),
    ]);
    const started = Date.now();
    const timedOut = await sendWebhook(
      `http://127.0.0.1:${(slow.address() as any).port}/`,
      {},
      '{}',
      { timeoutMs: 300, gate: localForStaging.gate('staging') },
    );
    expect(timedOut.error).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(2000);
    const large = await sendWebhook(`http://127.0.0.1:${(big.address() as any).port}/`, {}, '{}', {
      timeoutMs: 2000,
      gate: localForStaging.gate('staging'),
    });
    expect(large.statusCode).toBe(200);
    expect(large.excerpt!.length).toBeLessThanOrEqual(1024);
    slow.closeAllConnections();
    slow.close();
    big.close();
  });

  it('dead-letters production events whose destination breaks the rules, checked per event', async () => {
    const p = await startPlatform({
      socket: false,
      env: { WEBHOOK_DISPATCHER: 'on', WEBHOOK_POLL_MS: '20', WEBHOOK_LOCAL_DESTINATIONS: 'on' },
    });
    try {
      const s = await createPartner(p, { environment: 'production' });
      // Refused when set on an app with a production key; one stored before that rule is refused when sent.
      expect(
        (await p.admin('PATCH', `/apps/${s.appId}`, { webhook_url: `${rx.url}/shared` })).body.code,
      ).toBe('VALIDATION_ERROR');
      await p.app.platform.db.query('update apps set webhook_url = $1 where id = $2', [
        `${rx.url}/shared`,
        s.appId,
      ]);
      const prod = (
        await s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: orderBody() })
      ).body.data.order_details.order_id;
      await until(async () => (await eventsAbout(p, prod))[0]!.delivery_status === 'dead');
      const [row] = await eventsAbout(p, prod);
      expect(row!.last_error).toMatch(/destination refused: must use https/);
      expect(rx.on('/shared')).toHaveLength(0);
    } finally {
      await p.close();
    }
  });
});
