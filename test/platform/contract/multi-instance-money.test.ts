import { describe, expect, it } from 'vitest';
import { onPostgres, onRedis, useTwoInstances } from '../../helpers/harness.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import { balance, expectLedgerConsistent, topUp, walletPartner } from '../../wallet/helpers.ts';
import {
  expectLedgerBalanced,
  journals,
  orderBody as saleBody,
  salesPartner,
  shop,
  stockOf,
} from '../../catalog/helpers.ts';

// Creates and wallet spends split across two instances behave as on one.
describe.runIf(onPostgres && onRedis)('idempotency and money across two instances', () => {
  const two = useTwoInstances();

  it('gives one 201 for 20 concurrent creates of one reference spread over both', async () => {
    const s = await walletPartner(two.a);
    const body = orderBody();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.client
          .send('POST', '/api/v1/delivery/orders.create', {
            body,
            baseUrl: (i % 2 ? two.a : two.b).url,
          })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(19);
  });

  it('never overdraws one wallet from two instances', async () => {
    const s = await walletPartner(two.a);
    const estimate = await s.client.send<any>('POST', '/api/v1/delivery/orders.estimate', {
      body: {
        pickup_location: { coordinates: ACCRA_CENTRAL },
        delivery_location: { coordinates: EAST_LEGON },
      },
    });
    const fee = estimate.body.data.estimated_price as number;
    await topUp(s, 3 * fee + 1);
    const paid = () => {
      const body = orderBody({ payment: { payer: 'partner' } });
      body.pickup.coordinates = ACCRA_CENTRAL;
      body.delivery.coordinates = EAST_LEGON;
      return body;
    };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        s.client
          .send('POST', '/api/v1/delivery/orders.create', {
            body: paid(),
            baseUrl: (i % 2 ? two.a : two.b).url,
          })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((x) => x === 201)).toHaveLength(3);
    expect(statuses.filter((x) => x === 402)).toHaveLength(5);
    expect(await balance(s)).toBeCloseTo(1, 2);
    await expectLedgerConsistent(two.a);
  });
});

describe.runIf(onPostgres && onRedis)('stock and settlement across two instances', () => {
  const two = useTwoInstances();

  it('sells the last 4 units exactly 4 times and settles a sale once when orders and verifies hit both', async () => {
    const s = await salesPartner(two.a);
    const item = await shop(two.a, {
      product: { variants: [{ label: 'Last ones', price_ghs: 25, stock: 4 }] },
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.client.send<any>('POST', '/api/v1/safe-catalog/orders.create', {
          body: saleBody(item),
          baseUrl: (i % 2 ? two.a : two.b).url,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(await stockOf(two.a, item.variantId)).toEqual({ stock: 4, reserved: 4 });
    const sale = results.find((r) => r.status === 201)!.body.data;
    await two.a.app.platform.db.query(
      "update delivery_orders set status = 'delivered' where id = (select delivery_order_id from sales where id = $1)",
      [sale.sale_id],
    );
    const verifies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.client.send<any>('POST', '/api/v1/safe-catalog/orders.verify', {
          body: { sale_id: sale.sale_id },
          baseUrl: (i % 2 ? two.a : two.b).url,
        }),
      ),
    );
    expect(verifies.every((r) => r.body.data.state === 'confirmed')).toBe(true);
    expect((await journals(two.a, sale.sale_id)).map((j) => j.kind)).toEqual(['sale_settlement']);
    await expectLedgerBalanced(two.a);
  });
});
