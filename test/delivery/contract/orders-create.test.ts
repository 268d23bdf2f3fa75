import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { storedOrder } from '../../helpers/orders-read.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../fixtures.ts';

const CREATE = '/api/v1/delivery/orders.create';
const GET = '/api/v1/delivery/orders.get';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p);
});
afterAll(() => p.close());

type Res = { status: number; body: any; headers: Record<string, string> };
const create = (body: unknown, who: PartnerSetup = s): Promise<Res> =>
  who.client.send('POST', CREATE, { body });
const get = async (orderId: string, who: PartnerSetup = s) =>
  (await who.client.send<any>('POST', GET, { body: { order_id: orderId } })).body.data;

describe('orders.create', () => {
  it('creates an order and answers 201 with its id and estimated delivery', async () => {
    const res = await create(orderBody());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'success',
      message: expect.any(String),
      data: { status: 'order_created' },
    });
    expect(res.body.data.order_details.order_id).toMatch(/^dlv_/);
    expect(new Date(res.body.data.order_details.estimated_delivery).toISOString()).toBe(
      res.body.data.order_details.estimated_delivery,
    );
    const details = await get(res.body.data.order_details.order_id);
    expect(details).toMatchObject({
      status: 'placed',
      order_info: {
        recipient_name: 'Ama Mensah',
        recipient_phone: '+233241234567',
        payment_status: 'pending',
      },
    });
  });

  it('prices from coordinates exactly as orders.estimate does, ignoring payment.amount and location_id', async () => {
    const body = orderBody({ payment: { amount: 999 } });
    body.pickup.coordinates = ACCRA_CENTRAL;
    body.delivery.coordinates = EAST_LEGON;
    body.delivery.location_id = 'loc_kumasi_adum';
    const created = await create(body);
    const estimate = await s.client.send<any>('POST', '/api/v1/delivery/orders.estimate', {
      body: {
        pickup_location: { coordinates: ACCRA_CENTRAL },
        delivery_location: { coordinates: EAST_LEGON },
      },
    });
    const details = await get(created.body.data.order_details.order_id);
    expect(details.order_info.amount).toBe(estimate.body.data.estimated_price);
    expect(details.order_info.amount).toBeGreaterThan(0);
  });

  it('falls back to payment.amount without coordinates, else records no amount', async () => {
    const withAmount = orderBody({ payment: { amount: 25.5, method: 'mobile_money' } });
    delete withAmount.delivery.coordinates;
    expect(
      (await get((await create(withAmount)).body.data.order_details.order_id)).order_info.amount,
    ).toBe(25.5);
    const none = orderBody();
    delete none.pickup.coordinates;
    expect(
      (await get((await create(none)).body.data.order_details.order_id)).order_info,
    ).not.toHaveProperty('amount');
  });

  it('accepts Ghana phone numbers in their common forms and stores them as E.164', async () => {
    for (const phone of ['024 123 4567', '0241234567', '+233241234567', '233241234567']) {
      const res = await create(orderBody({ customer: { name: 'A', phone } }));
      expect(res.status, phone).toBe(201);
      expect((await get(res.body.data.order_details.order_id)).order_info.recipient_phone).toBe(
        '+233241234567',
      );
    }
  });

  it('answers MISSING_REQUIRED_FIELD naming the missing field', async () => {
    const cases: Array<[string, (b: Record<string, any>) => void]> = [
      ['order_reference', (b) => delete b.order_reference],
      ['customer.phone', (b) => delete b.customer.phone],
      ['pickup.contact_person', (b) => delete b.pickup.contact_person],
      ['delivery', (b) => delete b.delivery],
      ['item', (b) => delete b.item],
    ];
    for (const [field, mutate] of cases) {
      const body = orderBody();
      mutate(body);
      const res = await create(body);
      expect([res.status, res.body.code], field).toEqual([400, 'MISSING_REQUIRED_FIELD']);
      expect(res.body.details).toContainEqual({ field, issue: 'is required' });
    }
  });

  it('answers INVALID_ORDER_PAYLOAD for wrong types, unknown properties, bad coordinates, enums, dates and phones', async () => {
    const cases: Array<[string, (b: Record<string, any>) => void]> = [
      ['item', (b) => (b.item = 42)],
      ['tip', (b) => (b.tip = 5)],
      ['customer.email', (b) => (b.customer.email = 'a@b.c')],
      ['delivery.coordinates.lng', (b) => (b.delivery.coordinates = { lat: 5.6 })],
      ['delivery.coordinates.lat', (b) => (b.delivery.coordinates = { lat: 95, lng: 0 })],
      ['payment.payer', (b) => (b.payment = { payer: 'someone' })],
      ['payment.method', (b) => (b.payment = { method: 'bitcoin' })],
      ['delivery_date', (b) => (b.delivery_date = 'tomorrow')],
      ['delivery_date', (b) => (b.delivery_date = '2026-02-30')],
      ['customer.phone', (b) => (b.customer.phone = '+2348012345678')],
      ['customer.phone', (b) => (b.customer.phone = '12345')],
      ['delivery.coordinates', (b) => (b.delivery.coordinates = { lat: 6.1375, lng: 1.2123 })], // Lomé
      [
        'payment.amount',
        (b) => {
          delete b.delivery.coordinates;
          b.payment = { amount: 10.001 };
        },
      ],
      ['webhook_url', (b) => (b.webhook_url = 'not a url')],
    ];
    for (const [field, mutate] of cases) {
      const body = orderBody();
      mutate(body);
      const res = await create(body);
      expect([res.status, res.body.code], field).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
      expect(
        res.body.details.map((d: { field: string }) => d.field),
        field,
      ).toContain(field);
    }
  });

  it('refuses http webhook URLs for production keys only, and private ones for both', async () => {
    expect((await create(orderBody({ webhook_url: 'http://hooks.example.com/x' }))).status).toBe(
      201,
    );
    const local = await create(orderBody({ webhook_url: 'http://localhost:4000/hooks' }));
    expect([local.status, local.body.code]).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
    const prod = await createPartner(p, { environment: 'production' });
    expect(
      (await create(orderBody({ webhook_url: 'https://hooks.example.com/x' }), prod)).status,
    ).toBe(201);
    for (const url of [
      'http://hooks.example.com/x',
      'https://192.168.1.10/x',
      'https://localhost/x',
    ]) {
      const res = await create(orderBody({ webhook_url: url }), prod);
      expect([res.status, res.body.code], url).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
    }
  });

  it('gives one 201 and nineteen 409 DUPLICATE_ORDER_REFERENCE for 20 concurrent creates of one reference', async () => {
    const body = orderBody();
    const results = await Promise.all(Array.from({ length: 20 }, () => create(body)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const dup = results.filter((r) => r.status === 409);
    expect(dup).toHaveLength(19);
    expect(dup.every((r) => r.body.code === 'DUPLICATE_ORDER_REFERENCE')).toBe(true);
    const n = await countRows(
      p,
      'select count(*)::int as n from delivery_orders where order_reference = $1',
      [body.order_reference],
    );
    expect(n).toBe(1);
  });

  it('holds no reference after a failed create, and scopes references per app and environment', async () => {
    const body = orderBody();
    expect((await create({ ...body, customer: { name: 'A', phone: 'nope' } })).status).toBe(400);
    expect((await create(body)).status).toBe(201);
    const otherApp = await createPartner(p);
    expect((await create(body, otherApp)).status).toBe(201);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const prodSameApp = await addKey(p, s, { environment: 'production' });
    expect((await create(body, prodSameApp)).status).toBe(201);
  });

  it('checks the spend scope of a wallet-funded order before validating it', async () => {
    const res = await create({ payment: { payer: 'partner' }, nonsense: true });
    expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    // A staging key can never hold the scope: the answer points to a production key instead.
    expect(res.body.message).toMatch(
      /need a production key with the scope delivery:wallet:spend, which staging keys never hold/,
    );
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const unscoped = await create(
      { payment: { payer: 'partner' } },
      await addKey(p, s, { environment: 'production', scopes: ['delivery:write'] }),
    );
    expect([unscoped.status, unscoped.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect(unscoped.body.message).toMatch(
      /need the scope delivery:wallet:spend: ask the platform's operations team for a production key that names it/,
    );
  });

  it('requires both coordinates on a wallet-funded order, then the wallet balance (402, nothing written)', async () => {
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const spender = await addKey(p, s, {
      environment: 'production',
      scopes: ['delivery:write', 'delivery:wallet:spend'],
    });
    const noCoords = orderBody({ payment: { payer: 'partner' } });
    delete noCoords.pickup.coordinates;
    const res = await create(noCoords, spender);
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
    expect(res.body.details).toContainEqual({
      field: 'pickup.coordinates',
      issue: 'is required when payment.payer is partner',
    });
    const body = orderBody({ payment: { payer: 'partner', amount: 1 } });
    const refused = await create(body, spender);
    expect([refused.status, refused.body.code]).toEqual([402, 'INSUFFICIENT_WALLET_BALANCE']);
    const n = await countRows(
      p,
      'select count(*)::int as n from delivery_orders where order_reference = $1',
      [body.order_reference],
    );
    expect(n).toBe(0);
  });

  it('writes the order, its first timeline entry and a delivery.order.created event together', async () => {
    const res = await create(orderBody({ webhook_url: 'https://example.com/order-hook' }));
    const id = res.body.data.order_details.order_id;
    const events: any[] = await eventsAbout(p, id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'delivery.order.created',
      sequence: 1,
      destination_url: 'https://example.com/order-hook',
    });
    expect(events[0].payload).toMatchObject({
      type: 'delivery.order.created',
      environment: 'staging',
      data: { order_id: id, status: 'placed', sequence: 1 },
    });
  });

  it('reads the first timeline entry from the order itself: placed, at its creation, with nothing stored for it', async () => {
    const res = await create(orderBody());
    const id = res.body.data.order_details.order_id;
    expect(
      await countRows(
        p,
        'select count(*)::int as n from delivery_order_events where order_id = $1',
        [id],
      ),
    ).toBe(0);
    const row = await storedOrder(p, id);
    const tracked = await s.client.send<any>('POST', '/api/v1/delivery/orders.track', {
      body: { order_id: id },
    });
    expect(tracked.body.data.timeline[0]).toMatchObject({
      status: 'placed',
      timestamp: row.created_at.toISOString(),
    });
  });

  it('writes an order and its event atomically: when the event cannot be written, neither is, and the reference stays free', async () => {
    const db = p.app.platform.db;
    const body = orderBody();
    await db.exec(`create function refuse_outbox() returns trigger language plpgsql as $$
      begin if new.payload->'data'->>'order_reference' = '${body.order_reference}' then raise exception 'outbox refused'; end if; return new; end $$;
      create trigger refuse_outbox before insert on outbox_events for each row execute function refuse_outbox();`);
    try {
      const refused = await create(body);
      expect(refused.status).toBe(500);
      expect(
        await countRows(
          p,
          'select count(*)::int as n from delivery_orders where order_reference = $1',
          [body.order_reference],
        ),
      ).toBe(0);
    } finally {
      await db.exec('drop trigger refuse_outbox on outbox_events; drop function refuse_outbox();');
    }
    expect((await create(body)).status).toBe(201);
  });

  it('leaves exactly one created event per order under concurrent creates, duplicates included', async () => {
    const bodies = Array.from({ length: 6 }, () => orderBody());
    const results = await Promise.all(bodies.flatMap((b) => [create(b), create(b), create(b)]));
    expect(results.filter((r) => r.status === 201)).toHaveLength(6);
    const refs = bodies.map((b) => b.order_reference);
    const orphans = await countRows(
      p,
      `select count(*)::int as n from delivery_orders o where o.order_reference = any($1)
         and (select count(*) from outbox_events e where e.subject_id = o.id and e.type = 'delivery.order.created') <> 1`,
      [refs],
    );
    expect(orphans).toBe(0);
    expect(
      await countRows(
        p,
        `select count(*)::int as n from outbox_events where type = 'delivery.order.created' and payload->'data'->>'order_reference' = any($1)`,
        [refs],
      ),
    ).toBe(6);
  });
});
