import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import { DEFAULT_CALENDAR, DEFAULT_PRICING, priceFee } from '../domain/index.ts';
import {
  CENTRAL_ACCRA,
  GHANA_AREAS,
  GHANA_REGIONS,
  resolveArea,
  type LatLng,
} from '../../../shared/ghana/index.ts';
import {
  OUTSIDE_GHANA,
  estimateDelivery,
  type EstimateDeps,
  type EstimateInput,
} from './estimate.ts';
import { feeFor } from '../domain/index.ts';

const KUMASI = { lat: 6.688, lng: -1.624 };
const OSU = { lat: 5.556, lng: -0.179 };
const LOME = { lat: 6.13, lng: 1.222 };
const LONDON = { lat: 51.5, lng: -0.12 };

// Monday 30 March 2026, 09:00 Accra (GMT): before the same-day cut-off.
const MONDAY = new Date('2026-03-30T09:00:00Z');

const deps = (over: Partial<EstimateDeps> = {}): EstimateDeps => ({
  pricing: DEFAULT_PRICING,
  calendar: DEFAULT_CALENDAR,
  windowMinMinutes: 60,
  resolve: async (p: LatLng) => resolveArea(p, GHANA_AREAS, GHANA_REGIONS, 15),
  now: MONDAY,
  ...over,
});

const to = (
  coordinates: LatLng,
  rest: Omit<EstimateInput, 'delivery_location'> = {},
): EstimateInput => ({
  delivery_location: { coordinates },
  ...rest,
});

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('feeFor', () => {
  it('is the standard priceFee, in pesewas', () => {
    expect(feeFor(CENTRAL_ACCRA, KUMASI, DEFAULT_PRICING)).toBe(
      priceFee(CENTRAL_ACCRA, KUMASI, 'standard', DEFAULT_PRICING),
    );
    expect(Number.isSafeInteger(feeFor(CENTRAL_ACCRA, OSU, DEFAULT_PRICING))).toBe(true);
  });

  it('follows the configured pricing', () => {
    const pricing = {
      ...DEFAULT_PRICING,
      basePesewas: { ...DEFAULT_PRICING.basePesewas, standard: 5000 },
    };
    expect(feeFor(CENTRAL_ACCRA, KUMASI, pricing)).toBeGreaterThan(
      feeFor(CENTRAL_ACCRA, KUMASI, DEFAULT_PRICING),
    );
  });
});

describe('estimateDelivery', () => {
  it('prices standard exactly as feeFor, from central Accra by default', async () => {
    const data = await estimateDelivery(to(KUMASI), deps());
    expect(data.priority_level).toBe('standard');
    expect(data.estimated_price).toBe(pesewasToGhs(feeFor(CENTRAL_ACCRA, KUMASI, DEFAULT_PRICING)));
    expect(data.pickup_region).toBe('Greater Accra');
    expect(data.pickup_description).toBe('Central Accra (default pickup point)');
    expect(data.dropoff_region).toBe('Ashanti');
    expect(data.location_coverage).toEqual({ delivery_available: true, service_area: 'Adum' });
    expect(data.additional_info.tracking_available).toBe(true);
  });

  it('lists all three priorities, economy < standard < cargo, and quotes the one asked', async () => {
    const data = await estimateDelivery(to(KUMASI, { priority: 'cargo' }), deps());
    const price = Object.fromEntries(data.available_options.map((o) => [o.priority, o.price]));
    expect(Object.keys(price)).toEqual(['standard', 'economy', 'cargo']);
    expect(price.economy!).toBeLessThan(price.standard!);
    expect(price.standard!).toBeLessThan(price.cargo!);
    expect(data.estimated_price).toBe(price.cargo);
    expect(data.priority_level).toBe('cargo');
    for (const o of data.available_options) expect(o.description).toMatch(/delivered on \w+day/);
  });

  it('uses the pickup coordinates and the addresses given', async () => {
    const data = await estimateDelivery(
      {
        delivery_location: { coordinates: OSU, address: '12 Oxford Street' },
        pickup_location: { coordinates: KUMASI, address: 'Kejetia market' },
      },
      deps(),
    );
    expect(data.estimated_price).toBe(pesewasToGhs(feeFor(KUMASI, OSU, DEFAULT_PRICING)));
    expect(data.pickup_description).toBe('Kejetia market');
    expect(data.dropoff_description).toBe('12 Oxford Street');
    expect(data.pickup_region).toBe('Ashanti');
  });

  it('prices from central Accra when the pickup has an address but no coordinates, and says so', async () => {
    const data = await estimateDelivery(
      { ...to(KUMASI), pickup_location: { address: 'Shop 4, Makola' } },
      deps(),
    );
    expect(data.estimated_price).toBe(pesewasToGhs(feeFor(CENTRAL_ACCRA, KUMASI, DEFAULT_PRICING)));
    expect(data.pickup_description).toMatch(/^Shop 4, Makola \(priced from central Accra/);
  });

  it('labels with live areas through the injected resolver', async () => {
    const live = [
      {
        id: 'loc_LIVE',
        name: 'New Estate',
        region: 'Ashanti',
        zone: 'Kumasi Metro',
        coordinates: KUMASI,
      },
    ];
    const data = await estimateDelivery(
      to(KUMASI),
      deps({ resolve: async (p) => resolveArea(p, live, GHANA_REGIONS, 15) }),
    );
    expect(data.location_coverage.service_area).toBe('New Estate');
    expect(data.dropoff_description).toBe('New Estate, Ashanti');
  });

  it.each([
    ['delivery point', CENTRAL_ACCRA, LOME, 'the delivery point is'],
    ['pickup point', LONDON, OSU, 'the pickup point is'],
    ['both points', LONDON, LOME, 'the pickup and delivery points are'],
  ])(
    'answers delivery_available false with every price 0 when the %s is outside Ghana',
    async (_, pickup, dropoff, text) => {
      const data = await estimateDelivery(
        { ...to(dropoff), pickup_location: { coordinates: pickup } },
        deps(),
      );
      expect(data.location_coverage.delivery_available).toBe(false);
      expect(data.estimated_price).toBe(0);
      expect(data.available_options.map((o) => o.price)).toEqual([0, 0, 0]);
      expect(data.additional_info.tracking_available).toBe(false);
      expect(data.additional_info.delivery_description).toContain(text);
      expect(data.delivery_window.earliest).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    },
  );

  it('says Outside Ghana for the region and service area of an end outside', async () => {
    const data = await estimateDelivery(to(LOME), deps());
    expect(data.dropoff_region).toBe(OUTSIDE_GHANA);
    expect(data.location_coverage.service_area).toBe(OUTSIDE_GHANA);
    expect(data.pickup_region).toBe('Greater Accra');
  });

  it('plans same-day windows today before the cut-off, and the next delivery day after it', async () => {
    const morning = await estimateDelivery(to(OSU), deps());
    expect(morning.pickup_time).toBe('2026-03-30T09:00:00.000Z');
    expect(morning.delivery_window.earliest.slice(0, 10)).toBe('2026-03-30');
    expect(morning.estimated_delivery_time).toBe(morning.delivery_window.latest);
    expect(morning.delivery_time).toBe(morning.delivery_window.earliest);
    expect(morning.service_type).toBe('same_day');
    const evening = await estimateDelivery(
      to(OSU),
      deps({ now: new Date('2026-03-30T17:00:00Z') }),
    );
    expect(evening.pickup_time).toBe('2026-03-31T08:00:00.000Z');
  });

  it('delivers economy on the next delivery day', async () => {
    const data = await estimateDelivery(to(OSU, { priority: 'economy' }), deps());
    expect(data.service_type).toBe('next_day');
    expect(data.delivery_window.earliest.slice(0, 10)).toBe('2026-03-31');
  });

  it('moves a Good Friday order to Saturday: weekend flag set, holiday named', async () => {
    const data = await estimateDelivery(to(OSU, { order_date: '2026-04-03' }), deps());
    expect(data.pickup_time).toBe('2026-04-04T08:00:00.000Z');
    expect(data.delivery_window.earliest.slice(0, 10)).toBe('2026-04-04');
    expect(data.additional_info.weekend_delivery).toBe(true);
    expect(data.additional_info.holiday_delivery).toBe(false);
    expect(data.additional_info.pickup_description).toContain(
      'Friday 3 April 2026 is a public holiday (Good Friday)',
    );
    expect(data.additional_info.pickup_description).toContain('Saturday 4 April 2026');
  });

  it('moves an Easter Sunday order past Easter Monday to Tuesday', async () => {
    const data = await estimateDelivery(to(OSU, { order_date: '2026-04-05' }), deps());
    expect(data.pickup_time).toBe('2026-04-07T08:00:00.000Z');
    expect(data.additional_info.weekend_delivery).toBe(false);
    expect(data.additional_info.holiday_delivery).toBe(false);
    expect(data.additional_info.pickup_description).toContain('Sunday 5 April 2026 is a Sunday');
  });

  it('never lets the date change the price (design: Pricing)', async () => {
    const a = await estimateDelivery(to(KUMASI), deps());
    const b = await estimateDelivery(to(KUMASI, { order_date: '2026-04-05' }), deps());
    expect(b.available_options).not.toEqual(a.available_options); // windows differ...
    expect(b.available_options.map((o) => o.price)).toEqual(
      a.available_options.map((o) => o.price),
    ); // ...prices do not
  });

  it.each(['2026-02-30', '2026-13-01', '26-04-01', '2026-04-01T10:00:00Z', ''])(
    'refuses order_date %j with VALIDATION_ERROR',
    async (order_date) => {
      const err = await rejection(estimateDelivery(to(OSU, { order_date }), deps()));
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.details).toEqual([{ field: 'order_date', issue: expect.any(String) }]);
    },
  );

  it('refuses invalid coordinates when called directly', async () => {
    const err = await rejection(estimateDelivery(to({ lat: 91, lng: 0 }), deps()));
    expect(err.details?.[0]?.field).toBe('delivery_location.coordinates');
  });
});
