import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { createOrder, getSale, orderBody, salesPartner, shop, stockOf } from '../helpers.ts';

describe('SERVICES=safe-catalog (delivery served by other instances)', () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, env: { SERVICES: 'safe-catalog' } });
    s = await salesPartner(p);
  });
  afterAll(() => p.close());

  it('serves the catalog, the operator catalog routes and orders.get', async () => {
    const b = await shop(p);
    const list = await s.client.send<any>('GET', '/api/v1/safe-catalog/catalog.list', {
      query: { vendor_id: b.vendorId },
    });
    expect([list.status, list.body.data.count]).toEqual([200, 1]);
    expect((await getSale(s, { sale_id: 'sale_x' })).body.code).toBe('SALE_NOT_FOUND');
    expect(p.app.platform.catalog).toBeDefined();
  });

  it('answers orders.create with 503 SERVICE_UNAVAILABLE before reserving anything', async () => {
    const b = await shop(p);
    const res = await createOrder(s, orderBody(b));
    expect([res.status, res.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(res.body.message).toContain('delivery service');
    expect(await stockOf(p, b.variantId)).toEqual({ stock: 10, reserved: 0 });
    expect(await countRows(p, 'select count(*)::int as n from sales')).toBe(0);
  });
});
