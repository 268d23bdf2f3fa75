import { Type, type Static } from '@sinclair/typebox';
import type { ValidationIssue } from '../../../platform/http/operation.ts';
import { Coordinates, FreeText, StringEnum, strictObject } from '../../../platform/http/schemas.ts';

const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

// The form is checked (with a sentence saying what is wrong) when the order is normalised.
const DigitalAddress = (end: string) =>
  Type.String({
    minLength: 1,
    maxLength: 12,
    description: `GhanaPostGPS digital address of the ${end}, e.g. GA-183-8164 (letters in any case, stored upper case). Shown to the courier and labels the area; never prices the order`,
  });

// The form is checked again, with its own code (DELIVERY_WINDOW_INVALID), by the window check.
const WindowTime = (description: string) =>
  Type.String({ format: 'date-time', maxLength: 40, description });

/** The window fields: a schema failure on them answers DELIVERY_WINDOW_INVALID, as the service does. */
const WINDOW_FIELD = /^\/?(pickup_ready_at|dropoff_deadline)$/;

export const CreateOrderBody = strictObject({
  order_reference: text(
    100,
    'Your unique reference for the order: the idempotency key, unique per app and environment',
  ),
  customer: strictObject({
    name: text(200),
    phone: text(32, 'Ghana phone number, e.g. 024 123 4567 or +233241234567'),
    whatsapp: Type.Optional(text(32)),
  }),
  delivery: strictObject({
    address: text(500),
    city: text(100),
    region: text(100),
    coordinates: Type.Optional(Coordinates),
    location_id: Type.Optional(
      text(64, 'An id from locations.list; labels the area, never changes the fee'),
    ),
    notes: Type.Optional(FreeText(1000)),
    digital_address: Type.Optional(DigitalAddress('drop-off')),
  }),
  item: text(500, 'What is being delivered'),
  pickup: strictObject({
    contact_person: text(200),
    contact_phone: text(32),
    address: Type.Optional(text(500)),
    coordinates: Type.Optional(Coordinates),
    location_id: Type.Optional(text(64)),
    digital_address: Type.Optional(DigitalAddress('pickup')),
  }),
  payment: Type.Optional(
    strictObject({
      payer: Type.Optional(
        StringEnum(
          ['partner', 'recipient'] as const,
          'Who pays the delivery fee (default recipient)',
        ),
      ),
      method: Type.Optional(StringEnum(['cash', 'mobile_money', 'card', 'bank_transfer'] as const)),
      amount: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 100_000,
          description: 'Fee in GHS when no coordinates are given (recipient pays only)',
        }),
      ),
      is_paid: Type.Optional(Type.Boolean()),
    }),
  ),
  delivery_date: Type.Optional(
    Type.String({ format: 'date', description: 'ISO date (YYYY-MM-DD)' }),
  ),
  special_instructions: Type.Optional(FreeText(1000)),
  pickup_ready_at: Type.Optional(
    WindowTime(
      'When the parcel is ready for pickup (date-time with its offset; Accra is UTC+0). No courier is offered the job before this less the dispatch lead time (30 minutes by default). At most 5 minutes ago and at most 14 days ahead, Monday to Saturday 08:00 to 20:00 Accra time, not on a public holiday. Without it the parcel is ready now',
    ),
  ),
  dropoff_deadline: Type.Optional(
    WindowTime(
      "When the parcel must be delivered by (date-time with its offset). After pickup_ready_at (or now) by at least the minimum window (60 minutes by default), within 14 days, in service hours and not on a public holiday. It becomes the order's estimated_delivery; an order that will miss it raises delivery.order.late",
    ),
  ),
  quote_id: Type.Optional(
    Type.String({
      maxLength: 44,
      pattern: '^quo_[0-9A-Za-z]{1,40}$',
      description:
        'A quote_id from orders.estimate (standard priority): the order is charged the quoted fee, whoever pays. Needs pickup and delivery coordinates equal to the points the quote priced; redeemable once, by the app and environment that asked, until quote_expires_at',
    }),
  ),
  test_clock_id: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: '^clk_[0-9A-Za-z]{1,60}$',
      description:
        "Staging keys only: a test clock from test_clocks.create. The order lives in the clock's time (created at its frozen_time; dispatch, the sandbox courier and the window check move it only when the clock advances; its events carry the clock's time). A quote_id must then come from an estimate on the same clock",
    }),
  ),
  webhook_url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        'Overrides the app webhook URL for this order: http(s), https for production keys, resolving only to globally routable addresses (loopback, private, link-local, reserved and local-only names are refused)',
    }),
  ),
});
export type CreateOrderInput = Static<typeof CreateOrderBody>;

/**
 * A missing field answers MISSING_REQUIRED_FIELD; anything else INVALID_ORDER_PAYLOAD. Half a
 * coordinate pair is an invalid value, not a missing field.
 */
export function orderValidationError(issues: readonly ValidationIssue[]): {
  code: string;
  message: string;
} {
  const missing = issues.find(
    (i) => i.keyword === 'required' && !/coordinates\.(lat|lng)$/.test(i.field),
  );
  if (missing) return { code: 'MISSING_REQUIRED_FIELD', message: `${missing.field} is required.` };
  const first = issues[0];
  if (first && WINDOW_FIELD.test(first.field))
    return {
      code: 'DELIVERY_WINDOW_INVALID',
      message: `${first.field} must be a date-time with its offset, e.g. 2026-12-01T10:00:00Z.`,
    };
  return {
    code: 'INVALID_ORDER_PAYLOAD',
    message: first ? `${first.field} ${first.issue}.` : 'The order is invalid.',
  };
}
