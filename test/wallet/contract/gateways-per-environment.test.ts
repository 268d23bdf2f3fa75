import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { orderBody, SALE_SCOPES, shop, stockOf } from '../../catalog/helpers.ts';
import { walletPartner } from '../helpers.ts';

/** The sandbox's Pay button is anonymous: production money must never go through it unless a demo deployment says so. */
function logged(): { stream: PassThrough; lines: () => Array<Record<string, unknown>> } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  return {
    stream,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

const count = async (p: TestPlatform, table: string) =>
  (await p.app.platform.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

describe('no real gateway and SANDBOX_PAYMENTS_FOR_PRODUCTION off (the default)', () => {
  let p: TestPlatform;
  const log = logged();
  beforeAll(async () => {
    p = await startPlatform({
      socket: false,
      env: { SANDBOX_PAYMENTS_FOR_PRODUCTION: 'off', LOG_LEVEL: 'info' },
      logStream: log.stream,
    });
  });
  afterAll(() => p.close());

  it('refuses production top-ups with 503 PAYMENTS_NOT_CONFIGURED, creating nothing', async () => {
    const s = await walletPartner(p);
    const res = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
      body: { amount_ghs: 100 },
    });
    expect([res.status, res.body.code]).toEqual([503, 'PAYMENTS_NOT_CONFIGURED']);
    expect(res.body.message).toMatch(/no payment gateway for production/);
    expect(await count(p, 'wallet_topups')).toBe(0);
    expect(await count(p, 'sandbox_checkouts')).toBe(0);
  });

  it('refuses production online sales before reserving anything; cod sales still work', async () => {
    const b = await shop(p);
    const prod = await createPartner(p, { environment: 'production', scopes: SALE_SCOPES });
    const refused = await prod.client.send<any>('POST', '/api/v1/safe-catalog/orders.create', {
      body: orderBody(b, { payment_method: 'online' }),
    });
    expect([refused.status, refused.body.code]).toEqual([503, 'PAYMENTS_NOT_CONFIGURED']);
    expect(await count(p, 'sales')).toBe(0);
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    expect(
      (
        await prod.client.send<any>('POST', '/api/v1/safe-catalog/orders.create', {
          body: orderBody(b),
        })
      ).status,
    ).toBe(201);
  });

  it('says at start which gateway serves which environment', () => {
    expect(log.lines()).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(/staging through sandbox; production through none configured/),
      }),
    );
  });
});

describe('SANDBOX_PAYMENTS_FOR_PRODUCTION=on (a local playground)', () => {
  it('lets production pay through the sandbox, and says so at start (at info: the switch is refused unless this machine is the public address)', async () => {
    const log = logged();
    const p = await startPlatform({
      socket: false,
      env: { SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on', LOG_LEVEL: 'info' },
      logStream: log.stream,
    });
    try {
      const s = await walletPartner(p);
      const res = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
        body: { amount_ghs: 100 },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.checkout_url).toContain('/sandbox/checkout/');
      expect(log.lines()).toContainEqual(
        expect.objectContaining({
          level: 30,
          msg: expect.stringMatching(
            /production through sandbox \(SANDBOX_PAYMENTS_FOR_PRODUCTION=on/,
          ),
        }),
      );
    } finally {
      await p.close();
    }
  });

  it('accepts only on or off', () => {
    expect(() => loadConfig({ SANDBOX_PAYMENTS_FOR_PRODUCTION: 'yes' })).toThrow(
      /SANDBOX_PAYMENTS_FOR_PRODUCTION must be on or off/,
    );
  });
});

describe('with Hubtel configured', () => {
  let hubtel: FakeHubtel;
  let p: TestPlatform;
  beforeAll(async () => {
    hubtel = await startFakeHubtel();
    p = await startPlatform({
      socket: false,
      env: { SANDBOX_PAYMENTS_FOR_PRODUCTION: 'off', ...hubtelEnv(hubtel, 10_000) },
    });
  });
  afterAll(async () => {
    await p.close();
    await hubtel.close();
  });

  it('production top-ups and online sales go through Hubtel, whatever the sandbox switch says', async () => {
    const s = await walletPartner(p);
    const topup = await s.client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
      body: { amount_ghs: 100 },
    });
    expect(topup.status).toBe(201);
    expect(topup.body.data.checkout_url).toContain(hubtel.url);
    const b = await shop(p);
    const seller = await createPartner(p, { environment: 'production', scopes: SALE_SCOPES });
    const sale = await seller.client.send<any>('POST', '/api/v1/safe-catalog/orders.create', {
      body: orderBody(b, { payment_method: 'online' }),
    });
    expect(sale.status).toBe(201);
    expect(sale.body.data.checkout_url).toContain(hubtel.url);
    expect(await count(p, 'sandbox_checkouts')).toBe(0);
  });

  it('maps staging to the sandbox and production to Hubtel', () => {
    const gateways = p.app.platform.gateways;
    expect(gateways.forPayment('staging').name).toBe('sandbox');
    expect(gateways.forPayment('production').name).toBe('hubtel');
  });
});
