import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  addKey,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { Receiver, Tripwire, until } from '../receiver.ts';

const logs: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    logs.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let strict: TestPlatform;
let local: TestPlatform;
let rx: Receiver;
let trip: Tripwire;
beforeAll(async () => {
  [rx, trip] = await Promise.all([new Receiver().start(), new Tripwire().start()]);
  const env = { WEBHOOK_DISPATCHER: 'on', WEBHOOK_POLL_MS: '20', WEBHOOK_TIMEOUT_MS: '2000' };
  strict = await startPlatform({ socket: false, env });
  local = await startPlatform({
    socket: false,
    env: { ...env, WEBHOOK_LOCAL_DESTINATIONS: 'on', LOG_LEVEL: 'warn' },
    logStream: sink,
  });
});
afterAll(async () => {
  await Promise.all([strict?.close(), local?.close()]);
  await Promise.all([rx.close(), trip.close()]);
});

const create = (who: PartnerSetup, extra: Record<string, unknown> = {}) =>
  who.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: orderBody(extra) });
const eventOf = async (p: TestPlatform, orderId: string): Promise<any> =>
  (await eventsAbout(p, orderId))[0];

describe('WEBHOOK_LOCAL_DESTINATIONS', () => {
  it('is off unless set to on; anything else stops the start', () => {
    expect(loadConfig({}).webhooks.localDestinations).toBe(false);
    expect(loadConfig({ WEBHOOK_LOCAL_DESTINATIONS: 'off' }).webhooks.localDestinations).toBe(
      false,
    );
    expect(loadConfig({ WEBHOOK_LOCAL_DESTINATIONS: 'on' }).webhooks.localDestinations).toBe(true);
    expect(() => loadConfig({ WEBHOOK_LOCAL_DESTINATIONS: 'true' })).toThrow(
      /WEBHOOK_LOCAL_DESTINATIONS must be on or off/,
    );
  });

  it('is logged loudly at start when on', () => {
    const warning = logs
      .map((l) => JSON.parse(l))
      .find((l) => /WEBHOOK_LOCAL_DESTINATIONS=on/.test(l.msg));
    expect(warning).toMatchObject({ level: 40 });
  });

  it('off (the default): staging destinations on loopback are refused when set', async () => {
    const s = await createPartner(strict);
    const order = await create(s, { webhook_url: `${rx.url}/strict` });
    expect([order.status, order.body.code]).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
    expect(order.body.message).toMatch(/WEBHOOK_LOCAL_DESTINATIONS=on/);
    const app = await strict.admin('PATCH', `/apps/${s.appId}`, {
      webhook_url: `${rx.url}/strict`,
    });
    expect([app.status, app.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(rx.on('/strict')).toHaveLength(0);
  });

  it('on: staging events reach local receivers, by address or by name, per order or per app', async () => {
    const s = await createPartner(local);
    expect(
      (await local.admin('PATCH', `/apps/${s.appId}`, { webhook_url: `${rx.url}/app` })).status,
    ).toBe(200);
    const port = new URL(rx.url).port;
    for (const url of [
      `${rx.url}/order`,
      `http://localhost:${port}/by-name`,
      `http://[::ffff:127.0.0.1]:${port}/mapped`,
    ]) {
      expect((await create(s, { webhook_url: url })).status, url).toBe(201);
    }
    expect((await create(s)).status).toBe(201);
    await until(() =>
      ['/app', '/order', '/by-name', '/mapped'].every((path) => rx.on(path).length === 1),
    );
  });

  it('on: staging events still never go to link-local, metadata or reserved addresses', async () => {
    const s = await createPartner(local);
    for (const host of [
      '169.254.169.254',
      '2852039166',
      '[64:ff9b::a9fe:a9fe]',
      '[fe80::1]',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      const res = await create(s, { webhook_url: `http://${host}:${trip.port}/x` });
      expect([res.status, res.body.code], host).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
    }
  });

  it('on: production events never go to loopback, when set or when sent', async () => {
    const owner = await createPartner(local, { environment: 'production' });
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:7f00:1]', '10.0.0.1', 'vm']) {
      const res = await create(owner, { webhook_url: `https://${host}:${trip.port}/x` });
      expect([res.status, res.body.code], host).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
    }
    // An app with a production key is refused a local URL when it is set; one stored before that
    // rule (written straight to the database) is refused for production events when they are sent.
    const refused = await local.admin('PATCH', `/apps/${owner.appId}`, {
      webhook_url: `https://127.0.0.1:${trip.port}/both`,
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    await local.app.platform.db.query('update apps set webhook_url = $1 where id = $2', [
      `https://127.0.0.1:${trip.port}/both`,
      owner.appId,
    ]);
    const orderId = (await create(owner)).body.data.order_details.order_id;
    await until(async () => (await eventOf(local, orderId)).delivery_status === 'dead');
    expect((await eventOf(local, orderId)).last_error).toBe(
      'destination refused: must point to a public address: 127.0.0.1 is a loopback or private address',
    );
    expect(trip.connections).toBe(0);
    // The same app's staging key may use it.
    const stagingKey = await addKey(local, owner, { environment: 'staging' });
    expect(
      (await create(stagingKey, { webhook_url: `${rx.url}/staging-of-production-app` })).status,
    ).toBe(201);
    await until(() => rx.on('/staging-of-production-app').length === 1);
  });
});
