import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { orderBody } from '../fixtures.ts';

const BULK = '/api/v1/delivery/orders.create_bulk';
let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p);
});
afterAll(() => p.close());

const bulk = (body: unknown, rawBody?: string) =>
  s.client.send<any>('POST', BULK, rawBody === undefined ? { body } : { rawBody });

describe('orders.create_bulk', () => {
  it('processes each item as orders.create would, in input order, with a summary', async () => {
    const dupRef = `dup-${crypto.randomUUID()}`;
    const missing = orderBody();
    delete missing.customer.phone;
    const items: any[] = [
      orderBody(),
      orderBody({ order_reference: dupRef }),
      missing,
      orderBody({ item: 7 }),
      orderBody({ order_reference: dupRef }),
      orderBody({ payment: { payer: 'partner' } }),
      'not an object',
    ];
    const res = await bulk({ orders: items });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.summary).toEqual({ total: 7, created: 2, failed: 5 });
    const r = res.body.results;
    expect(r.map((x: any) => x.order_reference)).toEqual([
      items[0]!.order_reference,
      dupRef,
      missing.order_reference,
      items[3]!.order_reference,
      dupRef,
      items[5]!.order_reference,
      null,
    ]);
    expect(r[0]).toMatchObject({
      ok: true,
      status_code: 201,
      order_id: expect.stringMatching(/^dlv_/),
    });
    expect(r[2]).toMatchObject({
      ok: false,
      status_code: 400,
      code: 'MISSING_REQUIRED_FIELD',
      order_id: null,
      message: expect.stringContaining('customer.phone'),
    });
    expect(r[3]).toMatchObject({ ok: false, status_code: 400, code: 'INVALID_ORDER_PAYLOAD' });
    // The two items sharing a reference: exactly one landed.
    expect([r[1].status_code, r[4].status_code].sort()).toEqual([201, 409]);
    expect([r[1], r[4]].find((x: any) => !x.ok).code).toBe('DUPLICATE_ORDER_REFERENCE');
    expect(r[5]).toMatchObject({ ok: false, status_code: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(r[6]).toMatchObject({ ok: false, status_code: 400, code: 'INVALID_ORDER_PAYLOAD' });
    const created = await p.app.platform.db.query<{ id: string }>(
      'select id from delivery_orders where order_reference = any($1)',
      [items.slice(0, 2).map((i: any) => i.order_reference)],
    );
    expect(created).toHaveLength(2);
  });

  it('refuses a bad batch as a whole before touching anything', async () => {
    const cases: Array<[unknown, string]> = [
      [{ orders: [] }, 'BATCH_EMPTY'],
      [{ orders: Array.from({ length: 101 }, () => orderBody()) }, 'BATCH_TOO_LARGE'],
      [{}, 'BATCH_TOO_LARGE'],
      [{ orders: { a: 1 } }, 'BATCH_TOO_LARGE'],
      [{ orders: [orderBody()], dry_run: true }, 'VALIDATION_ERROR'],
    ];
    const before = await countRows(p, 'select count(*)::int as n from delivery_orders');
    for (const [body, code] of cases) {
      const res = await bulk(body);
      expect([res.status, res.body.code], code).toEqual([400, code]);
    }
    expect((await bulk(undefined, '[1,2]')).body.code).toBe('INVALID_JSON');
    expect((await bulk(undefined, '{"orders": [')).body.code).toBe('INVALID_JSON');
    const after = await countRows(p, 'select count(*)::int as n from delivery_orders');
    expect(after).toBe(before);
  });

  it('accepts 100 items and counts the call as one write', async () => {
    const res = await bulk({ orders: Array.from({ length: 100 }, () => orderBody()) });
    expect(res.body.summary).toEqual({ total: 100, created: 100, failed: 0 });
    const next = await s.client.send('POST', BULK, { body: { orders: [orderBody()] } });
    expect(Number(next.headers['ratelimit-remaining'])).toBe(
      Number(res.headers['ratelimit-remaining']) - 1,
    );
  });
});
