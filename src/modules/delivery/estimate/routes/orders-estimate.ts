import { type Static, Type } from '@sinclair/typebox';
import type { AuthContext } from '../../../../platform/auth/context.ts';
import { atClockTime } from '../../../../platform/clock-scope.ts';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../../platform/http/openapi-shapes.ts';
import { StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { PRIORITIES, type CalendarConfig, type PricingConfig } from '../../domain/index.ts';
import { feeFor } from '../../domain/index.ts';
import { CENTRAL_ACCRA, type LatLng, type ResolvedArea } from '../../../../shared/ghana/index.ts';
import type { OrderClocks } from '../../orders/service.ts';
import type { QuoteBook } from '../../quotes/service.ts';
import { estimateDelivery } from '../estimate.ts';

const Coordinates = strictObject(
  {
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
  },
  'WGS84 decimal degrees; both members required',
);

const Address = Type.String({ maxLength: 500 });

export const EstimateBody = strictObject({
  delivery_location: strictObject({ coordinates: Coordinates, address: Type.Optional(Address) }),
  pickup_location: Type.Optional(
    strictObject(
      { address: Type.Optional(Address), coordinates: Type.Optional(Coordinates) },
      'Defaults to central Accra; without coordinates the price is computed from central Accra',
    ),
  ),
  priority: Type.Optional(StringEnum(PRIORITIES, 'default standard')),
  // The pattern keeps the form strict (no date-times); `format: date` and the service refuse impossible days.
  order_date: Type.Optional(
    Type.String({
      format: 'date',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'YYYY-MM-DD (Ghana); shapes the windows, never the price',
    }),
  ),
  test_clock_id: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: '^clk_[0-9A-Za-z]{1,60}$',
      description:
        "Staging keys only: estimate at a test clock's time. Its windows start from the clock's frozen_time, and its quote expires in the clock's time, for an order on the same clock",
    }),
  ),
});

const Iso = (description: string) => Type.String({ format: 'date-time', description });
const Price = (description: string) => Type.Number({ minimum: 0, description });
const Text = (description: string) => Type.String({ description });

/** Documents the answer (and lets tests check it); every field is always present. */
export const EstimateData = Type.Object(
  {
    estimated_price: Price(
      'GHS for the priority asked (default standard); standard is exactly what orders.create charges. 0 when delivery_available is false',
    ),
    estimated_delivery_time: Iso('Time we commit to: the end of delivery_window'),
    pickup_time: Iso('Start of the pickup window'),
    delivery_time: Iso('Start of the delivery window'),
    pickup_region: Text('Region of the pickup point, or "Outside Ghana"'),
    dropoff_region: Text('Region of the delivery point, or "Outside Ghana"'),
    pickup_description: Text('The pickup address given, else its area and region'),
    dropoff_description: Text('The delivery address given, else its area and region'),
    delivery_window: Type.Object({ earliest: Iso('window start'), latest: Iso('window end') }),
    priority_level: StringEnum(PRIORITIES),
    service_type: StringEnum(
      ['same_day', 'next_day'] as const,
      'same_day (standard, cargo: delivered the pickup day) or next_day (economy)',
    ),
    available_options: Type.Array(
      Type.Object({
        priority: StringEnum(PRIORITIES),
        price: Price('GHS; 0 when delivery_available is false'),
        description: Text('what the option means, with its window'),
      }),
      { description: 'All three priorities, standard, economy, cargo' },
    ),
    location_coverage: Type.Object({
      delivery_available: Type.Boolean({
        description:
          'false when either point is outside Ghana (then every price is 0; windows are still planned)',
      }),
      service_area: Text(
        'Known area of the delivery point within the area radius, else its region, else "Outside Ghana"',
      ),
    }),
    additional_info: Type.Object({
      weekend_delivery: Type.Boolean({
        description: 'The delivery day is a Saturday (couriers run Monday to Saturday)',
      }),
      holiday_delivery: Type.Boolean({
        description:
          'The delivery day is a public holiday: always false, since a Sunday or holiday moves pickup and delivery to the next delivery day',
      }),
      tracking_available: Type.Boolean({
        description:
          'An order created for this route can be tracked (true whenever delivery is available)',
      }),
      pickup_description: Text('Pickup window in words, and why a requested date moved'),
      delivery_description: Text('Delivery window in words'),
    }),
    windows: Type.Array(
      Type.Object(
        {
          pickup_ready_at: Iso('Send as orders.create pickup_ready_at'),
          dropoff_deadline: Iso('Send as orders.create dropoff_deadline'),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Delivery windows orders.create accepts for this route: 3-hour slots (08:00, 11:00, 14:00 and 17:00 Accra time, UTC+0) on the next 3 delivery days with a slot still to start (Monday to Saturday, public holidays skipped). Empty when delivery_available is false',
      },
    ),
    quote_id: Type.Optional(
      Type.String({
        pattern: '^quo_',
        description:
          'Locks the standard price for orders.create (send it as quote_id with the same coordinates). Present when priority is standard and delivery is available',
      }),
    ),
    quote_expires_at: Type.Optional(
      Iso('Until when quote_id holds its price (15 minutes after the estimate by default)'),
    ),
  },
  { additionalProperties: false },
);

const ESTIMATE_EXAMPLES = [
  {
    name: 'accra',
    summary: 'Makola Market to East Legon on a weekday',
    request: {
      delivery_location: { coordinates: { lat: 5.635, lng: -0.161 }, address: 'East Legon' },
      pickup_location: { address: 'Makola Market', coordinates: { lat: 5.549, lng: -0.209 } },
      order_date: '2026-12-01',
    },
    response: {
      status: 'success',
      message: 'Delivery estimate calculated.',
      data: {
        estimated_price: 46,
        estimated_delivery_time: '2026-12-01T12:00:00.000Z',
        pickup_time: '2026-12-01T08:00:00.000Z',
        delivery_time: '2026-12-01T09:00:00.000Z',
        pickup_region: 'Greater Accra',
        dropoff_region: 'Greater Accra',
        pickup_description: 'Makola Market',
        dropoff_description: 'East Legon',
        delivery_window: {
          earliest: '2026-12-01T09:00:00.000Z',
          latest: '2026-12-01T12:00:00.000Z',
        },
        priority_level: 'standard',
        service_type: 'same_day',
        available_options: [
          {
            priority: 'standard',
            price: 46,
            description:
              'Standard, same day: delivered on Tuesday 1 December 2026 between 09:00 and 12:00 (Ghana time).',
          },
          {
            priority: 'economy',
            price: 36.5,
            description:
              'Economy, batched for the next delivery day: delivered on Wednesday 2 December 2026 between 08:00 and 20:00 (Ghana time).',
          },
          {
            priority: 'cargo',
            price: 82,
            description:
              'Cargo, larger loads the same day in a later window: delivered on Tuesday 1 December 2026 between 11:00 and 15:00 (Ghana time).',
          },
        ],
        location_coverage: { delivery_available: true, service_area: 'East Legon' },
        additional_info: {
          weekend_delivery: false,
          holiday_delivery: false,
          tracking_available: true,
          pickup_description:
            'Pickup on Tuesday 1 December 2026 between 08:00 and 10:00 (Ghana time).',
          delivery_description:
            'Delivery on Tuesday 1 December 2026 between 09:00 and 12:00 (Ghana time).',
        },
        windows: [
          {
            pickup_ready_at: '2026-11-30T11:00:00.000Z',
            dropoff_deadline: '2026-11-30T14:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-11-30T14:00:00.000Z',
            dropoff_deadline: '2026-11-30T17:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-11-30T17:00:00.000Z',
            dropoff_deadline: '2026-11-30T20:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-01T08:00:00.000Z',
            dropoff_deadline: '2026-12-01T11:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-01T11:00:00.000Z',
            dropoff_deadline: '2026-12-01T14:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-01T14:00:00.000Z',
            dropoff_deadline: '2026-12-01T17:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-01T17:00:00.000Z',
            dropoff_deadline: '2026-12-01T20:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-02T08:00:00.000Z',
            dropoff_deadline: '2026-12-02T11:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-02T11:00:00.000Z',
            dropoff_deadline: '2026-12-02T14:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-02T14:00:00.000Z',
            dropoff_deadline: '2026-12-02T17:00:00.000Z',
          },
          {
            pickup_ready_at: '2026-12-02T17:00:00.000Z',
            dropoff_deadline: '2026-12-02T20:00:00.000Z',
          },
        ],
        quote_id: 'quo_01KB3Z8M4Q2W7N5X9R0T6V1YCD',
        quote_expires_at: '2026-11-30T10:15:00.000Z',
      },
    },
  },
];

export interface OrdersEstimateDeps {
  pricing: PricingConfig;
  calendar: CalendarConfig;
  windowMinMinutes: number;
  /** Resolves live areas too (the LocationsService). */
  locations: { resolve(p: LatLng): Promise<ResolvedArea | null> };
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** Issues the price lock of a standard estimate. */
  quotes: QuoteBook;
  /** Test clocks an estimate may be made on. */
  clocks: OrderClocks;
}

type EstimateInput = Static<typeof EstimateBody>;

/** The estimate (and its quote) at the deps' clock's time: a test clock's when it runs inside one. */
async function estimate(deps: OrdersEstimateDeps, body: EstimateInput, auth: AuthContext) {
  const now = new Date(deps.clock());
  const data = await estimateDelivery(body, {
    pricing: deps.pricing,
    calendar: deps.calendar,
    windowMinMinutes: deps.windowMinMinutes,
    resolve: (p) => deps.locations.resolve(p),
    now,
  });
  // orders.create prices at standard only, so only a standard price can be locked.
  if (data.location_coverage.delivery_available && data.priority_level === 'standard') {
    const pickup = body.pickup_location?.coordinates ?? CENTRAL_ACCRA;
    const dropoff = body.delivery_location.coordinates;
    const fee = feeFor(pickup, dropoff, deps.pricing);
    const clockId = body.test_clock_id ?? null;
    Object.assign(data, await deps.quotes.issue(auth, pickup, dropoff, fee, now, clockId));
  }
  const message = data.location_coverage.delivery_available
    ? 'Delivery estimate calculated.'
    : 'Delivery is not available for these coordinates: we deliver within Ghana only.';
  return { body: { status: 'success', message, data } };
}

export const ordersEstimate = (deps: OrdersEstimateDeps) =>
  defineOperation({
    id: 'delivery.orders.estimate',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.estimate',
    summary:
      'Price a delivery for every priority and plan its windows; creates no order. A standard estimate also locks its price as a quote for orders.create. Outside Ghana: 200 with delivery_available false and prices 0',
    scope: 'delivery:read',
    access: 'read',
    body: EstimateBody,
    response: DeliverySuccess(EstimateData),
    errorCodes: ['TEST_CLOCK_NOT_FOUND', 'TEST_CLOCK_NOT_ALLOWED', 'TEST_CLOCK_ADVANCING'],
    examples: ESTIMATE_EXAMPLES,
    handler: async ({ body, auth }) => {
      if (body.test_clock_id === undefined) return estimate(deps, body, auth);
      const at = await deps.clocks.timeOf(auth, body.test_clock_id);
      return atClockTime(at, () => estimate(deps, body, auth), body.test_clock_id);
    },
  });
