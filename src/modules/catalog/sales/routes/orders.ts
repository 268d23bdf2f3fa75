import { Type } from '@sinclair/typebox';
import { errors } from '../../../../platform/errors.ts';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DateTime, SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import { StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES } from '../../../delivery/index.ts';
import { CreateSaleBody, SaleIdBody } from '../schema.ts';
import type { SalesService } from '../service.ts';

export const STATES = ['awaiting_payment', 'awaiting_delivery', 'confirmed', 'failed', 'on_hold'] as const;
export const PAYMENT_STATUSES = ['pending', 'paid', 'collected', 'declined', 'expired', 'not_collected', 'refund_due', 'not_started', 'amount_mismatch'] as const;
const Ghs = (description: string) => Type.Number({ description });
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

const Money = {
  subtotal_ghs: Ghs('Sum of unit price times quantity'),
  delivery_fee_ghs: Ghs('Delivery fee, from the vendor pickup point to the buyer'),
  markup_ghs: Ghs('Reseller markup; always 0 for cod'),
  total_ghs: Ghs('online: subtotal + fee + markup, charged through the gateway; cod: subtotal + fee, collected in cash'),
};

const PaymentStatus = StringEnum(
  PAYMENT_STATUSES,
  'pending (awaiting payment or cash), paid (gateway), collected (cash), declined, expired (checkout lapsed), not_collected (cod delivery ended without it), refund_due (paid, then its delivery was cancelled, or paid after the order had failed; see refund_due_ghs), not_started (an attempt answered 4xx or 502), amount_mismatch (the gateway collected another amount than total_ghs: the order is on_hold for review)',
);

const EXAMPLE_ORDER = {
  payment_method: 'online',
  vendor_id: 'ven_01JD2WZ3C7Q9R1M5T8V2X4Y6ZA',
  items: [{ product_id: 'prd_01JD2X5V8T3N0Q6W4RZK7B9MPE', variant_id: 'var_01JD2X5V8T3N0Q6W4RZK7B9MPF', quantity: 2 }],
  buyer: { name: 'Ama Mensah', phone: '024 123 4567' },
  delivery: { address: '12 Lagos Avenue, East Legon, Accra', lat: 5.635, lng: -0.161 },
  reseller_markup_ghs: 20,
  external_reference: 'shop-order-5512',
};
const { reseller_markup_ghs: _markup, ...COD_ORDER } = { ...EXAMPLE_ORDER, payment_method: 'cod', external_reference: 'shop-order-5513' };
const SALE_ID = 'sale_01JD2Y0A1B2C3D4E5F6G7H8J9K';

export const ordersCreate = (sales: SalesService) =>
  defineOperation({
    id: 'safe-catalog.orders.create',
    service: 'safe-catalog',
    method: 'POST',
    path: '/api/v1/safe-catalog/orders.create',
    summary: 'Place a single-vendor order, prepaid through a gateway checkout or cash on delivery',
    scope: 'safe:write',
    productionOnly: true,
    access: 'write',
    body: CreateSaleBody,
    errorCodes: ['VALIDATION_ERROR', 'MARKUP_NOT_SUPPORTED_FOR_COD', 'OUT_OF_STOCK', 'PRODUCT_NOT_FOUND', 'DUPLICATE_REFERENCE', 'GATEWAY_ERROR', 'PAYMENTS_NOT_CONFIGURED'],
    description:
      'Prices, stock and the delivery fee are read on the server. Stock is reserved atomically: an order asking for more than is free answers 400 `OUT_OF_STOCK` naming the variant. `online` opens a gateway checkout (send the buyer to `checkout_url`, then call orders.verify); `cod` creates the delivery order at once and answers `state` `awaiting_delivery`. A reused `external_reference` of a created order answers 409 `DUPLICATE_REFERENCE` (use orders.get); an attempt answered with 4xx or 502 holds no stock and no reference, so it may be retried.',
    successStatus: 201,
    response: SafeSuccess(
      Type.Object({
        sale_id: Type.String(),
        reference: Type.String({ description: 'Human-facing reference, e.g. for the buyer' }),
        checkout_url: Nullable(Type.String({ format: 'uri', description: 'online: where to send the buyer; null for cod' })),
        state: Type.Optional(Type.Literal('awaiting_delivery', { description: 'Present only for cod' })),
        ...Money,
      }),
    ),
    examples: [
      {
        name: 'online',
        summary: 'Prepaid with a reseller markup',
        request: EXAMPLE_ORDER,
        response: { status: 'success', data: { sale_id: SALE_ID, reference: 'SC-7K3M9Q2PXD', checkout_url: 'https://partners.example.com/sandbox/checkout/chk_01JD2Y0A1B2C3D4E5F6G7H8J9M', subtotal_ghs: 360, delivery_fee_ghs: 28.5, markup_ghs: 20, total_ghs: 408.5 } },
      },
      {
        name: 'cod',
        summary: 'Cash on delivery: no markup, no checkout',
        request: COD_ORDER,
        response: { status: 'success', data: { sale_id: SALE_ID, reference: 'SC-7K3M9Q2PXE', checkout_url: null, state: 'awaiting_delivery', subtotal_ghs: 360, delivery_fee_ghs: 28.5, markup_ghs: 0, total_ghs: 388.5 } },
      },
    ],
    handler: async ({ body, auth }) => ({ statusCode: 201, body: { status: 'success', data: await sales.create(auth, body) } }),
  });

export const ordersVerify = (sales: SalesService) =>
  defineOperation({
    id: 'safe-catalog.orders.verify',
    service: 'safe-catalog',
    method: 'POST',
    path: '/api/v1/safe-catalog/orders.verify',
    summary: 'Check an order against the gateway (online) or its delivery (cod), settling it once',
    scope: 'safe:write',
    productionOnly: true,
    access: 'write',
    body: SaleIdBody,
    errorCodes: ['SALE_NOT_FOUND', 'GATEWAY_ERROR'],
    description:
      'online: `awaiting_payment` until the gateway reports payment (`confirmed`, settled once, delivery dispatched) or failure or expiry (`failed`, stock restocked). cod: `awaiting_delivery` until the delivery is delivered (`confirmed`, settled once) or cancelled or failed (`failed`, restocked). Safe to call any number of times: the settlement is appended to the ledger exactly once.',
    response: SafeSuccess(
      Type.Object({
        sale_id: Type.String(),
        state: StringEnum(STATES),
        settled: Type.Boolean({ description: 'The settlement decomposition was appended to the ledger' }),
        payment_status: PaymentStatus,
        delivery_status: Type.Union([StringEnum(DELIVERY_STATUSES), Type.Null()], { description: "The delivery order's status; null until it exists" }),
      }),
    ),
    examples: [
      { name: 'confirmed', summary: 'Paid and settled; the delivery is on its way', request: { sale_id: SALE_ID }, response: { status: 'success', data: { sale_id: SALE_ID, state: 'confirmed', settled: true, payment_status: 'paid', delivery_status: 'placed' } } },
    ],
    handler: async ({ body, auth }) => ({ body: { status: 'success', data: await sales.verify(auth, body.sale_id) } }),
  });

const GetQuery = strictObject({
  sale_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Either sale_id or external_reference' })),
  external_reference: Type.Optional(Type.String({ minLength: 3, maxLength: 64 })),
});

export const ordersGet = (sales: SalesService) =>
  defineOperation({
    id: 'safe-catalog.orders.get',
    service: 'safe-catalog',
    method: 'GET',
    path: '/api/v1/safe-catalog/orders.get',
    summary: "Read an order's payment and delivery status (by sale_id or external_reference)",
    scope: 'safe:read',
    access: 'read',
    querystring: GetQuery,
    errorCodes: ['SALE_NOT_FOUND'],
    description: 'Read-only. Give exactly one of `sale_id` and `external_reference`. Another app\'s or environment\'s order answers 404 `SALE_NOT_FOUND`, like a missing one.',
    response: SafeSuccess(
      Type.Object({
        sale_id: Type.String(),
        reference: Type.String(),
        external_reference: Type.String(),
        vendor_id: Type.String(),
        payment_method: StringEnum(['online', 'cod'] as const),
        state: StringEnum(STATES),
        payment_status: PaymentStatus,
        checkout_url: Nullable(Type.String({ description: 'While a prepaid order awaits payment' })),
        gateway_amount_ghs: Nullable(Ghs('What the gateway reported as paid, once it reported a payment; differs from total_ghs when the order is on_hold')),
        refund_due_ghs: Nullable(Ghs('What the buyer is owed back (payment_status refund_due); null otherwise')),
        delivery: Type.Union([
          Type.Object({ order_id: Type.String(), status: StringEnum(DELIVERY_STATUSES), tracking_url: Type.String({ format: 'uri' }) }),
          Type.Null(),
        ]),
        items: Type.Array(
          Type.Object({ product_id: Type.String(), variant_id: Type.String(), title: Type.String(), label: Type.String(), quantity: Type.Integer(), unit_price_ghs: Type.Number(), line_total_ghs: Type.Number() }),
        ),
        ...Money,
        created_at: DateTime(),
        updated_at: DateTime(),
      }),
    ),
    examples: [
      {
        name: 'awaiting_delivery',
        summary: 'A cash-on-delivery order on its way',
        query: { sale_id: SALE_ID },
        response: {
          status: 'success',
          data: {
            sale_id: SALE_ID,
            reference: 'SC-7K3M9Q2PXE',
            external_reference: 'shop-order-5513',
            vendor_id: EXAMPLE_ORDER.vendor_id,
            payment_method: 'cod',
            state: 'awaiting_delivery',
            payment_status: 'pending',
            checkout_url: null,
            gateway_amount_ghs: null,
            refund_due_ghs: null,
            delivery: { order_id: 'dlv_01JD2Y0B1B2C3D4E5F6G7H8J9K', status: 'in_transit', tracking_url: 'https://partners.example.com/track/q3VbN8x2LmT0cR5wYk7dHs1a' },
            items: [{ product_id: EXAMPLE_ORDER.items[0]!.product_id, variant_id: EXAMPLE_ORDER.items[0]!.variant_id, title: 'Handwoven kente stole', label: 'Gold and green', quantity: 2, unit_price_ghs: 180, line_total_ghs: 360 }],
            subtotal_ghs: 360,
            delivery_fee_ghs: 28.5,
            markup_ghs: 0,
            total_ghs: 388.5,
            created_at: '2025-11-21T09:30:00.000Z',
            updated_at: '2025-11-21T11:02:00.000Z',
          },
        },
      },
    ],
    handler: async ({ query, auth }) => ({ body: { status: 'success', data: await sales.get(auth, saleKey(query)) } }),
  });

function saleKey(q: { sale_id?: string; external_reference?: string }): { saleId: string } | { externalReference: string } {
  if (q.sale_id !== undefined && q.external_reference === undefined) return { saleId: q.sale_id };
  if (q.external_reference !== undefined && q.sale_id === undefined) return { externalReference: q.external_reference };
  throw errors.validation('Give exactly one of sale_id and external_reference.', [{ field: q.sale_id ? 'external_reference' : 'sale_id', issue: 'give exactly one of sale_id and external_reference' }]);
}
