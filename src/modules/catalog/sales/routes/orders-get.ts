import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import type { SalesService } from '../service.ts';
import { refundView, type RefundsService } from '../../refunds/service.ts';
import { REFUND_STATUSES } from '../../refunds/repository.ts';
import { errors } from '../../../../platform/errors.ts';
import { DateTime } from '../../../../platform/http/openapi-shapes.ts';
import { StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES } from '../../../delivery/index.ts';
import { saleView } from '../views.ts';
import {
  EXAMPLE_ORDER,
  Ghs,
  Money,
  Nullable,
  PaymentStatus,
  SALE_ID,
  STATES,
} from './sale-schema.ts';

const GetQuery = strictObject({
  sale_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Either sale_id or external_reference',
    }),
  ),
  external_reference: Type.Optional(Type.String({ minLength: 3, maxLength: 64 })),
});

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export const ordersGet = (sales: SalesService, refunds: RefundsService, publicBaseUrl: string) =>
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
    description:
      "Read-only. Give exactly one of `sale_id` and `external_reference`. Another app's or environment's order answers 404 `SALE_NOT_FOUND`, like a missing one.",
    response: SafeSuccess(
      Type.Object({
        sale_id: Type.String(),
        reference: Type.String(),
        external_reference: Type.String(),
        vendor_id: Type.String(),
        payment_method: StringEnum(['online', 'cod'] as const),
        state: StringEnum(STATES),
        payment_status: PaymentStatus,
        checkout_url: Nullable(
          Type.String({ description: 'While a prepaid order awaits payment' }),
        ),
        gateway_amount_ghs: Nullable(
          Ghs(
            'What the gateway reported as paid, once it reported a payment; differs from total_ghs when the order is on_hold',
          ),
        ),
        refund_due_ghs: Nullable(
          Ghs('What the buyer is owed back (payment_status refund_due); null otherwise'),
        ),
        refund: Type.Union(
          [
            Type.Object({
              status: StringEnum(
                REFUND_STATUSES,
                'pending (waiting to be sent), processing (with the provider), succeeded (payment_status refunded), failed (an operator retries it), reversed (the provider sent a succeeded refund back: owed again, payment_status refund_due, until an operator retries it)',
              ),
              method: StringEnum(
                ['gateway_refund', 'mobile_money'] as const,
                "gateway_refund: back through the payment's own channel; mobile_money: a transfer to the buyer's wallet",
              ),
              amount_ghs: Ghs('What goes back to the buyer'),
              refunded_at: Type.Union([DateTime('When the provider confirmed it'), Type.Null()]),
            }),
            Type.Null(),
          ],
          {
            description:
              'The refund of what the buyer is owed, once one was opened; null otherwise',
          },
        ),
        delivery: Type.Union([
          Type.Object({
            order_id: Type.String(),
            status: StringEnum(DELIVERY_STATUSES),
            tracking_url: Type.String({ format: 'uri' }),
          }),
          Type.Null(),
        ]),
        items: Type.Array(
          Type.Object({
            product_id: Type.String(),
            variant_id: Type.String(),
            title: Type.String(),
            label: Type.String(),
            quantity: Type.Integer(),
            unit_price_ghs: Type.Number(),
            line_total_ghs: Type.Number(),
          }),
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
            refund: null,
            delivery: {
              order_id: 'dlv_01JD2Y0B1B2C3D4E5F6G7H8J9K',
              status: 'in_transit',
              tracking_url: 'https://partners.example.com/track/q3VbN8x2LmT0cR5wYk7dHs1a',
            },
            items: [
              {
                product_id: EXAMPLE_ORDER.items[0]!.product_id,
                variant_id: EXAMPLE_ORDER.items[0]!.variant_id,
                title: 'Handwoven kente stole',
                label: 'Gold and green',
                quantity: 2,
                unit_price_ghs: 180,
                line_total_ghs: 360,
              },
            ],
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
    handler: async ({ query, auth }) => {
      const { sale, items } = await sales.get(auth, saleKey(query));
      return {
        body: {
          status: 'success',
          data: {
            ...saleView(sale, items, publicBaseUrl),
            refund: refundView(await refunds.forSale(sale.id)),
          },
        },
      };
    },
  });

function saleKey(q: {
  sale_id?: string;
  external_reference?: string;
}): { saleId: string } | { externalReference: string } {
  if (q.sale_id !== undefined && q.external_reference === undefined) return { saleId: q.sale_id };
  if (q.external_reference !== undefined && q.sale_id === undefined)
    return { externalReference: q.external_reference };
  throw errors.validation('Give exactly one of sale_id and external_reference.', [
    {
      field: q.sale_id ? 'external_reference' : 'sale_id',
      issue: 'give exactly one of sale_id and external_reference',
    },
  ]);
}
