import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DateTime, DeliverySuccess } from '../../../../platform/http/openapi-shapes.ts';
import { CreateOrderBody, orderValidationError } from '../schema.ts';
import type { OrdersService } from '../service.ts';
import { createdView } from '../views.ts';
import { requireSpendScope } from '../bulk.ts';
import { success } from './common.ts';

/** The 201 body, for the reference and the docs tests. */
export const CreatedResponse = DeliverySuccess(
  Type.Object({
    order_details: Type.Object({
      order_id: Type.String({
        description: 'The platform order id: use it for orders.get, orders.track and orders.cancel',
      }),
      estimated_delivery: DateTime('When the order is expected to be delivered'),
      order_reference: Type.String({ description: 'Your reference, echoed' }),
      tracking_url: Type.String({
        format: 'uri',
        description: 'Public tracking page for the recipient',
      }),
      amount: Type.Optional(
        Type.Number({
          description:
            'Delivery fee in GHS (the quoted one when quote_id was sent); absent when no fee could be set',
        }),
      ),
      pickup_digital_address: Type.Optional(
        Type.String({ description: 'pickup.digital_address as stored (upper case), when given' }),
      ),
      delivery_digital_address: Type.Optional(
        Type.String({ description: 'delivery.digital_address as stored (upper case), when given' }),
      ),
      quote_id: Type.Optional(
        Type.String({ description: 'The quote that set the fee, when sent' }),
      ),
      pickup_ready_at: Type.Optional(DateTime('pickup_ready_at as stored (UTC), when sent')),
      dropoff_deadline: Type.Optional(DateTime('dropoff_deadline as stored (UTC), when sent')),
      test_clock_id: Type.Optional(
        Type.String({ description: 'The sandbox test clock the order lives on, when sent' }),
      ),
    }),
    status: Type.Literal('order_created'),
  }),
);

/** A recipient-pays order; bulk's example reuses it. */
export const ORDER_EXAMPLE = {
  order_reference: 'shop-10023',
  customer: { name: 'Ama Mensah', phone: '024 123 4567' },
  delivery: {
    address: '12 Oxford Street',
    city: 'Accra',
    region: 'Greater Accra',
    coordinates: { lat: 5.556, lng: -0.182 },
    notes: 'Blue gate',
  },
  item: 'Two pairs of sandals',
  pickup: {
    contact_person: 'Kofi Boateng',
    contact_phone: '020 123 4567',
    address: 'Makola Market',
    coordinates: { lat: 5.549, lng: -0.209 },
  },
};

const CREATE_EXAMPLES = [
  {
    name: 'recipient_pays',
    summary: 'Recipient pays cash on delivery (the default); the fee comes from the coordinates',
    request: ORDER_EXAMPLE,
    response: {
      status: 'success',
      message: 'Order created',
      data: {
        order_details: {
          order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE',
          estimated_delivery: '2025-11-21T18:00:00.000Z',
          order_reference: 'shop-10023',
          tracking_url: 'https://partners.example.com/track/q3VbN8x2LmT0cR5wYk7dHs1a',
          amount: 25.5,
        },
        status: 'order_created',
      },
    },
  },
  {
    name: 'wallet_funded',
    summary:
      'The partner pays from its wallet: needs delivery:wallet:spend and coordinates at both ends',
    request: {
      ...ORDER_EXAMPLE,
      order_reference: 'shop-10024',
      payment: { payer: 'partner' },
      delivery_date: '2025-11-24',
    },
  },
  {
    name: 'quoted',
    summary:
      'Redeems a quote from orders.estimate (same coordinates) and gives the drop-off GhanaPostGPS address',
    request: {
      ...ORDER_EXAMPLE,
      order_reference: 'shop-10025',
      delivery: { ...ORDER_EXAMPLE.delivery, digital_address: 'GA-183-8164' },
      quote_id: 'quo_01KB3Z8M4Q2W7N5X9R0T6V1YCD',
    },
  },
  {
    name: 'windowed',
    summary:
      'Ready for pickup at 10:00 and due by 13:00 on a weekday (Accra time, UTC+0): one of the windows orders.estimate offers',
    request: {
      ...ORDER_EXAMPLE,
      order_reference: 'shop-10026',
      pickup_ready_at: '2025-11-24T10:00:00Z',
      dropoff_deadline: '2025-11-24T13:00:00Z',
    },
  },
];

export const ordersCreate = (orders: OrdersService, publicBaseUrl: string) =>
  defineOperation({
    id: 'delivery.orders.create',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.create',
    summary:
      'Create a delivery order (recipient pays on delivery by default, or debit the partner wallet)',
    scope: 'delivery:write',
    access: 'write',
    body: CreateOrderBody,
    errorCodes: [
      'MISSING_REQUIRED_FIELD',
      'INVALID_ORDER_PAYLOAD',
      'DUPLICATE_ORDER_REFERENCE',
      'INSUFFICIENT_WALLET_BALANCE',
      'INSUFFICIENT_SCOPE',
      'QUOTE_NOT_FOUND',
      'QUOTE_EXPIRED',
      'QUOTE_ALREADY_USED',
      'QUOTE_MISMATCH',
      'DELIVERY_WINDOW_INVALID',
      'DELIVERY_WINDOW_IN_PAST',
      'DELIVERY_WINDOW_TOO_FAR',
      'DELIVERY_WINDOW_REVERSED',
      'DELIVERY_WINDOW_TOO_SHORT',
      'DELIVERY_WINDOW_ON_HOLIDAY',
      'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS',
      'TEST_CLOCK_NOT_FOUND',
      'TEST_CLOCK_NOT_ALLOWED',
      'TEST_CLOCK_ADVANCING',
    ],
    validationError: orderValidationError,
    beforeValidation: requireSpendScope,
    description:
      'Recipient pays cash on delivery unless `payment.payer` is `partner`: then the fee is debited from the wallet at creation, which needs the scope `delivery:wallet:spend` (403 `INSUFFICIENT_SCOPE`, checked right after the JSON parse), pickup and delivery coordinates (400) and a balance plus credit headroom that covers the fee (402 `INSUFFICIENT_WALLET_BALANCE`). A repeated `order_reference` answers 409 `DUPLICATE_ORDER_REFERENCE` and creates and charges nothing: after a timeout, retry with the same reference (409 means the first attempt landed; confirm with orders.get). With `quote_id` (from a standard orders.estimate) the fee is the quoted one, wallet-funded or not: the quote must belong to this app and environment (else 400 `QUOTE_NOT_FOUND`), be unexpired (`QUOTE_EXPIRED`) and unused (`QUOTE_ALREADY_USED`; a retry of the order that used it still answers 409), and the order must carry the pickup and delivery coordinates it priced (`QUOTE_MISMATCH`). `pickup.digital_address` and `delivery.digital_address` take GhanaPostGPS addresses (e.g. GA-183-8164; a malformed one answers 400 `INVALID_ORDER_PAYLOAD` naming the field): they are stored and shown to the courier, and never set the fee. A delivery window (`pickup_ready_at`, `dropoff_deadline`, date-times with their offset, Accra time being UTC+0) schedules the order: dispatch offers it from `pickup_ready_at` less its lead time, `dropoff_deadline` becomes `estimated_delivery`, and an order that will miss its deadline raises `delivery.order.late` once. With `test_clock_id` (staging keys only) the order lives on that sandbox test clock: created at its time, and moved only when it advances (404 `TEST_CLOCK_NOT_FOUND` for an unknown or deleted clock, or one of another app; 400 `TEST_CLOCK_NOT_ALLOWED` for a production key; 409 `TEST_CLOCK_ADVANCING` while it advances). Each refusal is a 400 with its own code and writes nothing: `DELIVERY_WINDOW_INVALID` (not a date-time with its offset), `DELIVERY_WINDOW_IN_PAST`, `DELIVERY_WINDOW_TOO_FAR` (over 14 days ahead), `DELIVERY_WINDOW_REVERSED` (deadline not after ready), `DELIVERY_WINDOW_TOO_SHORT`, `DELIVERY_WINDOW_ON_HOLIDAY`, `DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS` (Sundays, or outside 08:00 to 20:00). Without them the order is planned as before (`delivery_date`, the same-day cut-off); with `pickup_ready_at`, its day is the pickup day and `delivery_date` is ignored.',
    successStatus: 201,
    response: CreatedResponse,
    examples: CREATE_EXAMPLES,
    handler: async ({ body, auth }) =>
      success('Order created', createdView(await orders.create(auth, body), publicBaseUrl), 201),
  });
