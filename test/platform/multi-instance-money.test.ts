import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, onRedis, startPlatform, type TestPlatform } from '../helpers/harness.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../delivery/fixtures.ts';
import { balance, expectLedgerConsistent, topUp, walletPartner } from '../wallet/helpers.ts';

// Creates and wallet spends split across two instances behave as on one.
describe.runIf(onPostgres && onRedis)('idempotency and money across two instances', () => {
  let a: TestPlatform;
  let b: TestPlatform;
  beforeAll(async () => {
    a = await startPlatform();
    b = await startPlatform({ schema: a.schema });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('gives one 201 for 20 concurrent creates of one reference spread over both', async () => {
    const s = await walletPartner(a);
    const body = orderBody();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.client.send('POST', '/api/v1/delivery/orders.create', { body, baseUrl: (i % 2 ? a : b).url }).then((r) => r.status)),
    );
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(19);
  });

  it('never overdraws one wallet from two instances', async () => {
    const s = await walletPartner(a);
    const estimate = await s.client.send<any>('POST', '/api/v1/delivery/orders.estimate', { body: { pickup_location: { coordinates: ACCRA_CENTRAL }, delivery_location: { coordinates: EAST_LEGON } } });
    const fee = estimate.body.data.estimated_price as number;
    await topUp(s, 3 * fee + 1);
    const paid = () => {
      const body = orderBody({ payment: { payer: 'partner' } });
      body.pickup.coordinates = ACCRA_CENTRAL;
      body.delivery.coordinates = EAST_LEGON;
      return body;
    };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => s.client.send('POST', '/api/v1/delivery/orders.create', { body: paid(), baseUrl: (i % 2 ? a : b).url }).then((r) => r.status)),
    );
    expect(statuses.filter((x) => x === 201)).toHaveLength(3);
    expect(statuses.filter((x) => x === 402)).toHaveLength(5);
    expect(await balance(s)).toBeCloseTo(1, 2);
    await expectLedgerConsistent(a);
  });
});
