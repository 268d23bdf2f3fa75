import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateOrderRequest } from '@partner-platform/sdk';
import { enterCode, newPhone, requestCode, smsCode } from '../../helpers/courier.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { WebClient } from '../../helpers/web.ts';
import { allOffDuty, PICKUP, ZONE } from '../../dispatch/helpers.ts';
import { orderBody } from '../fixtures.ts';

const CREATE = '/api/v1/delivery/orders.create';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

const withAddresses = (delivery: unknown, pickup?: unknown) => {
  const body = orderBody();
  if (delivery !== undefined) body.delivery.digital_address = delivery;
  if (pickup !== undefined) body.pickup.digital_address = pickup;
  return body;
};

const written = (reference: string) =>
  countRows(p, 'select count(*)::int as n from delivery_orders where order_reference = $1', [
    reference,
  ]);

describe('GhanaPostGPS digital addresses on orders.create', () => {
  // First, so that this order is the only one dispatch can offer.
  it('shows the addresses, with our area for them, on the courier app job screen', async () => {
    await allOffDuty(p);
    const { couriers } = p.app.platform;
    const phone = newPhone();
    const courier = await couriers.create({
      name: 'Esi Owusu',
      phone,
      vehicle: 'motorbike',
      zones: [ZONE],
    });
    await couriers.setDuty(courier.id, true);
    await couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
    const web = new WebClient(p);
    await requestCode(web, phone);
    await enterCode(web, phone, (await smsCode(p, phone))!);

    const res = await s.client.send<any>('POST', CREATE, {
      body: withAddresses('GA-183-8164', 'cc-123-4567'),
    });
    expect(res.status).toBe(201);
    await p.app.platform.dispatch!.offers.tick();
    expect(await p.app.platform.dispatch!.service.currentJob(courier.id)).toMatchObject({
      order_id: res.body.data.order_details.order_id,
    });
    const screen = (await web.get('/courier/')).text;
    expect(screen).toContain('New job offered');
    expect(screen).toContain(
      '<dt>Drop-off GhanaPostGPS</dt><dd id="dropoff-gps">GA-183-8164 (Accra Metro, Greater Accra)</dd>',
    );
    expect(screen).toContain(
      '<dt>Pickup GhanaPostGPS</dt><dd id="pickup-gps">CC-123-4567 (Central)</dd>',
    );
  });

  it('stores both addresses upper case and returns them with the order', async () => {
    const body = withAddresses('ga-183-8164', 'AK-0392-1234') as CreateOrderRequest;
    const created = await s.client.delivery.orders.create(body);
    expect(created.data.order_details).toMatchObject({
      delivery_digital_address: 'GA-183-8164',
      pickup_digital_address: 'AK-0392-1234',
    });
    const got = await s.client.delivery.orders.get(created.data.order_details.order_id);
    expect(got.data.order_info).toMatchObject({
      delivery_digital_address: 'GA-183-8164',
      pickup_digital_address: 'AK-0392-1234',
    });
  });

  it('never prices from an address: without coordinates the fee is payment.amount, the area comes from our table', async () => {
    const body = withAddresses('GT-0012-0001');
    delete body.delivery.coordinates;
    body.payment = { amount: 20 };
    const created = await s.client.send<any>('POST', CREATE, { body });
    expect(created.status).toBe(201);
    expect(created.body.data.order_details.amount).toBe(20);
    // The area columns no face shows, with SQL; the drop-off point from the courier's job sheet.
    const [row] = await p.app.platform.db.query<any>(
      'select dropoff_region, service_area from delivery_orders where order_reference = $1',
      [body.order_reference],
    );
    const sheet = await p.app.platform.delivery!.orders.jobSheet(
      created.body.data.order_details.order_id,
    );
    expect({ ...row, delivery_lat: sheet?.delivery_lat }).toEqual({
      dropoff_region: 'Greater Accra',
      service_area: 'Tema Metro',
      delivery_lat: null,
    });
  });

  it('leaves an order without addresses exactly as before', async () => {
    const res = await s.client.send<any>('POST', CREATE, { body: orderBody() });
    expect(Object.keys(res.body.data.order_details).sort()).toEqual([
      'amount',
      'estimated_delivery',
      'order_id',
      'order_reference',
      'tracking_url',
    ]);
    const got = await s.client.delivery.orders.get(res.body.data.order_details.order_id);
    expect(got.data.order_info).not.toHaveProperty('delivery_digital_address');
    expect(got.data.order_info).not.toHaveProperty('quote_id');
  });

  it.each([
    ['no hyphens', 'GA1838164'],
    ['an unknown region letter', 'QA-183-8164'],
    ['a short district number', 'GA-18-8164'],
    ['a space', 'GA-183 8164'],
    ['surrounding spaces', ' GA-183-8164'],
    ['a NUL byte', 'GA-183-816\u0000'],
    ['control characters', 'GA-183-\u0007\u001b64'],
    ['a huge string', 'GA-183-8164'.repeat(10_000)],
    ['a number', 1838164],
    ['an empty string', ''],
  ])(
    'refuses a delivery address with %s (400 INVALID_ORDER_PAYLOAD, nothing written)',
    async (_, value) => {
      const body = withAddresses(value);
      const res = await s.client.send<any>('POST', CREATE, { body });
      expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([
        400,
        'INVALID_ORDER_PAYLOAD',
      ]);
      expect(res.body.details[0].field).toBe('delivery.digital_address');
      expect(await written(body.order_reference)).toBe(0);
    },
  );

  it('names the pickup field and says what the form is', async () => {
    const body = withAddresses(undefined, 'XX-12-1');
    const res = await s.client.send<any>('POST', CREATE, { body });
    expect(res.body.details).toEqual([
      {
        field: 'pickup.digital_address',
        issue: expect.stringMatching(/GhanaPostGPS digital address.*GA-183-8164/),
      },
    ]);
    expect(res.body.message).toMatch(/^pickup\.digital_address must be a GhanaPostGPS/);
  });
});
