import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '@partner-platform/sdk';
import { DEFAULT_PRICING, priceFee } from '../../../src/modules/delivery/domain/index.ts';
import { CENTRAL_ACCRA } from '../../../src/shared/ghana/index.ts';
import { feeFor } from '../../../src/modules/delivery/domain/index.ts';
import { EstimateData } from '../../../src/modules/delivery/estimate/routes/orders-estimate.ts';
import { pesewasToGhs } from '../../../src/platform/money.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

const ESTIMATE = '/api/v1/delivery/orders.estimate';
const KUMASI = { lat: 6.688, lng: -1.624 };
const OSU = { lat: 5.556, lng: -0.179 };
const TEMA = { lat: 5.64, lng: 0.005 };
const LOME = { lat: 6.13, lng: 1.222 };

// Monday 30 March 2026, 09:00 in Accra (GMT). The server and the signing client share this clock.
let now = Date.parse('2026-03-30T09:00:00Z');
const clock = () => now;

let p: TestPlatform;
let client: PartnerClient;
// The operation is mounted by buildApp (the delivery module).
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock });
  const s: PartnerSetup = await createPartner(p, { scopes: ['delivery:read'] });
  client = new PartnerClient({
    apiKey: s.apiKey,
    signingSecret: s.signingSecret,
    baseUrl: p.url,
    fetch: p.fetch,
    now: clock,
  });
});
afterAll(() => p.close());

const ajv = new Ajv({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const checkData = ajv.compile(EstimateData);

async function estimate(body: unknown) {
  now += 1000;
  return client.send<any>('POST', ESTIMATE, { body });
}

async function ok(body: unknown) {
  const res = await estimate(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: 'success', message: expect.any(String) });
  return res.body.data;
}

async function invalid(body: unknown) {
  const res = await estimate(body);
  expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, 'VALIDATION_ERROR']);
  return res.body.details as { field: string; issue: string }[];
}

describe('delivery.orders.estimate', () => {
  it('answers every field of the contract with its type', async () => {
    const data = await ok({ delivery_location: { coordinates: KUMASI, address: 'Adum, Kumasi' } });
    expect(checkData(data), JSON.stringify(checkData.errors)).toBe(true);
    expect(Object.keys(data).sort()).toEqual(
      [
        'estimated_price',
        'estimated_delivery_time',
        'pickup_time',
        'delivery_time',
        'pickup_region',
        'dropoff_region',
        'pickup_description',
        'dropoff_description',
        'delivery_window',
        'priority_level',
        'service_type',
        'available_options',
        'location_coverage',
        'additional_info',
        // Additive (issue 31): the price lock a standard estimate answers with.
        'quote_id',
        'quote_expires_at',
        // Additive (issue 31): the delivery windows orders.create accepts.
        'windows',
      ].sort(),
    );
    expect(Object.keys(data.additional_info).sort()).toEqual([
      'delivery_description',
      'holiday_delivery',
      'pickup_description',
      'tracking_available',
      'weekend_delivery',
    ]);
    expect(data).toMatchObject({
      priority_level: 'standard',
      service_type: 'same_day',
      pickup_region: 'Greater Accra',
      dropoff_region: 'Ashanti',
      dropoff_description: 'Adum, Kumasi',
      location_coverage: { delivery_available: true, service_area: 'Adum' },
    });
    expect(data.available_options.map((o: { priority: string }) => o.priority)).toEqual([
      'standard',
      'economy',
      'cargo',
    ]);
  });

  it('quotes standard exactly as feeFor (what orders.create charges), from central Accra by default', async () => {
    const byDefault = await ok({ delivery_location: { coordinates: KUMASI } });
    expect(byDefault.estimated_price).toBe(
      pesewasToGhs(feeFor(CENTRAL_ACCRA, KUMASI, DEFAULT_PRICING)),
    );
    const withPickup = await ok({
      delivery_location: { coordinates: OSU },
      pickup_location: { coordinates: TEMA },
      priority: 'standard',
    });
    const fee = pesewasToGhs(feeFor(TEMA, OSU, DEFAULT_PRICING));
    expect(withPickup.estimated_price).toBe(fee);
    expect(withPickup.available_options[0]).toMatchObject({ priority: 'standard', price: fee });
  });

  it('prices economy < standard < cargo and quotes the priority asked', async () => {
    for (const priority of ['economy', 'cargo'] as const) {
      const data = await ok({ delivery_location: { coordinates: KUMASI }, priority });
      const [standard, economy, cargo] = data.available_options.map(
        (o: { price: number }) => o.price,
      );
      expect(economy).toBeLessThan(standard);
      expect(standard).toBeLessThan(cargo);
      expect(data.priority_level).toBe(priority);
      expect(data.estimated_price).toBe(
        pesewasToGhs(priceFee(CENTRAL_ACCRA, KUMASI, priority, DEFAULT_PRICING)),
      );
    }
  });

  it('answers 200 with delivery_available false and prices 0 outside Ghana (either end)', async () => {
    for (const body of [
      { delivery_location: { coordinates: LOME } },
      {
        delivery_location: { coordinates: OSU },
        pickup_location: { coordinates: { lat: 51.5, lng: -0.12 } },
      },
    ]) {
      const data = await ok(body);
      expect(checkData(data), JSON.stringify(checkData.errors)).toBe(true);
      expect(data.location_coverage.delivery_available).toBe(false);
      expect(data.estimated_price).toBe(0);
      expect(data.available_options.map((o: { price: number }) => o.price)).toEqual([0, 0, 0]);
      expect(data.additional_info.tracking_available).toBe(false);
    }
  });

  it('moves a Sunday order to Monday and a Good Friday order to Saturday, with the flags', async () => {
    const sunday = await ok({ delivery_location: { coordinates: OSU }, order_date: '2026-04-12' });
    expect(sunday.pickup_time).toBe('2026-04-13T08:00:00.000Z');
    expect(sunday.delivery_window.earliest.slice(0, 10)).toBe('2026-04-13');
    expect(sunday.additional_info).toMatchObject({
      weekend_delivery: false,
      holiday_delivery: false,
    });
    expect(sunday.additional_info.pickup_description).toContain('Sunday 12 April 2026 is a Sunday');

    const goodFriday = await ok({
      delivery_location: { coordinates: OSU },
      order_date: '2026-04-03',
    });
    expect(goodFriday.pickup_time).toBe('2026-04-04T08:00:00.000Z');
    expect(goodFriday.estimated_delivery_time.slice(0, 10)).toBe('2026-04-04');
    expect(goodFriday.additional_info).toMatchObject({
      weekend_delivery: true,
      holiday_delivery: false,
    });
    expect(goodFriday.additional_info.pickup_description).toContain('Good Friday');

    const today = await ok({ delivery_location: { coordinates: OSU } });
    expect(today.pickup_time.slice(0, 10)).toBe('2026-03-30');
    expect(goodFriday.estimated_price).toBe(today.estimated_price); // dates never change a fee
  });

  it('names the missing delivery_location.coordinates', async () => {
    expect(await invalid({ delivery_location: { address: 'Osu' } })).toEqual([
      { field: 'delivery_location.coordinates', issue: 'is required' },
    ]);
    expect(await invalid({})).toEqual([{ field: 'delivery_location', issue: 'is required' }]);
  });

  it('refuses half coordinates and out-of-range values', async () => {
    expect(await invalid({ delivery_location: { coordinates: { lat: 5.6 } } })).toEqual([
      { field: 'delivery_location.coordinates.lng', issue: 'is required' },
    ]);
    expect(
      await invalid({
        delivery_location: { coordinates: OSU },
        pickup_location: { coordinates: { lng: 0.1 } },
      }),
    ).toEqual([{ field: 'pickup_location.coordinates.lat', issue: 'is required' }]);
    const [lat] = await invalid({ delivery_location: { coordinates: { lat: 95, lng: 0 } } });
    expect(lat!.field).toBe('delivery_location.coordinates.lat');
    const [lng] = await invalid({ delivery_location: { coordinates: { lat: 5, lng: -181 } } });
    expect(lng!.field).toBe('delivery_location.coordinates.lng');
    const [text] = await invalid({ delivery_location: { coordinates: { lat: '5.6', lng: 0 } } });
    expect(text).toEqual({ field: 'delivery_location.coordinates.lat', issue: 'must be number' });
  });

  it('refuses an unknown priority', async () => {
    expect(await invalid({ delivery_location: { coordinates: OSU }, priority: 'express' })).toEqual(
      [{ field: 'priority', issue: 'must be one of standard, economy, cargo' }],
    );
  });

  it.each(['2026-02-30', '2026-13-01', '03/04/2026', '2026-04-03T10:00:00Z', 'tomorrow'])(
    'refuses order_date %j',
    async (order_date) => {
      const details = await invalid({ delivery_location: { coordinates: OSU }, order_date });
      expect(details.map((d) => d.field)).toEqual(['order_date']);
    },
  );

  it('refuses unknown properties at any level', async () => {
    const details = await invalid({
      delivery_location: { coordinates: { ...OSU, alt: 10 }, city: 'Accra' },
      pickup_location: { coordinates: TEMA, contact: 'x' },
      express: true,
    });
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'express', issue: 'is not an accepted property' },
        { field: 'delivery_location.city', issue: 'is not an accepted property' },
        { field: 'delivery_location.coordinates.alt', issue: 'is not an accepted property' },
        { field: 'pickup_location.contact', issue: 'is not an accepted property' },
      ]),
    );
  });

  it('answers 403 INSUFFICIENT_SCOPE to a key without delivery:read', async () => {
    const writer = await createPartner(p, { scopes: ['delivery:write'] });
    const c = new PartnerClient({
      apiKey: writer.apiKey,
      signingSecret: writer.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
      now: clock,
    });
    const res = await c.send<any>('POST', ESTIMATE, {
      body: { delivery_location: { coordinates: OSU } },
    });
    expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });
});
