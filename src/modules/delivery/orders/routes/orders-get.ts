import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DateTime, DeliverySuccess, IsoDate } from '../../../../platform/http/openapi-shapes.ts';
import { StringEnum } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES } from '../../domain/index.ts';
import type { ReadAlongside } from '../alongside.ts';
import type { ProofReader } from '../proof.ts';
import type { OrdersService } from '../service.ts';
import { detailsView } from '../views.ts';
import { FailureFields, OrderLookupBody, success } from './common.ts';

/** The 200 body, for the reference and the docs tests (design: Response shapes, fixes the loose fields). */
export const OrderDetailsResponse = DeliverySuccess(
  Type.Object({
    order_reference: Type.String(),
    internal_order_id: Type.String({
      description:
        'The platform order id (the order_id of orders.get, orders.track, orders.cancel)',
    }),
    status: StringEnum(DELIVERY_STATUSES),
    status_details: Type.Object({
      description: Type.String({ description: 'One plain sentence' }),
      timestamp: Type.Optional(DateTime('Last status change')),
    }),
    order_info: Type.Object({
      recipient_name: Type.Optional(Type.String()),
      recipient_phone: Type.Optional(Type.String()),
      recipient_address: Type.Optional(Type.String()),
      delivery_date: Type.Optional(IsoDate()),
      pickup_date: Type.Optional(IsoDate('The requested date, else the pickup day')),
      payment_status: Type.Optional(
        StringEnum(
          ['pending', 'collected', 'wallet_debited', 'refund_pending', 'refunded'] as const,
          'pending: the recipient pays on delivery',
        ),
      ),
      amount: Type.Optional(Type.Number({ description: 'Delivery fee in GHS' })),
      return_fee: Type.Optional(
        Type.Number({
          description:
            'Return fee in GHS charged to the wallet when a wallet-funded order was returned (the delivery fee is kept: the courier made the trip)',
        }),
      ),
      pickup_digital_address: Type.Optional(
        Type.String({ description: 'The GhanaPostGPS address given for the pickup, upper case' }),
      ),
      delivery_digital_address: Type.Optional(
        Type.String({ description: 'The GhanaPostGPS address given for the drop-off, upper case' }),
      ),
      quote_id: Type.Optional(
        Type.String({ description: 'The quote from orders.estimate that set the fee' }),
      ),
      pickup_ready_at: Type.Optional(
        DateTime('When the parcel is ready for pickup, as orders.create was given it (UTC)'),
      ),
      dropoff_deadline: Type.Optional(
        DateTime('When the parcel must be delivered by, as orders.create was given it (UTC)'),
      ),
      test_clock_id: Type.Optional(
        Type.String({ description: 'The sandbox test clock the order lives on (staging only)' }),
      ),
    }),
    tracking_url: Type.String({
      format: 'uri',
      description: 'Public tracking page for the recipient',
    }),
    ...FailureFields,
    proof_of_delivery: Type.Optional(
      Type.Object(
        {
          method: StringEnum(
            ['code', 'photo', 'signature'] as const,
            "What proved the delivery: code (the recipient's delivery code), else photo, else signature",
          ),
          recorded_at: DateTime('When that proof was given'),
          confirmation: Type.Optional(
            StringEnum(
              ['pending', 'confirmed', 'disputed', 'accepted'] as const,
              "Photo or signature only (absent when the code proved it): pending until the recipient answers the link texted to them, then confirmed or disputed by them, or accepted by an operator. The order's status stays delivered throughout",
            ),
          ),
          media: Type.Array(
            Type.Object({
              kind: StringEnum(['photo', 'signature'] as const),
              url: Type.String({
                format: 'uri',
                description:
                  'Signed link to the image; it stops working at expires_at (call orders.get again for a fresh one)',
              }),
              content_type: StringEnum(['image/jpeg', 'image/png', 'image/webp'] as const),
              taken_at: DateTime('When the courier took it'),
              expires_at: DateTime('When the link stops working (15 minutes after this answer)'),
            }),
            {
              description:
                'Photos and signatures the courier took, oldest first (empty when the code alone proved it)',
            },
          ),
        },
        {
          description:
            'Present once the courier has proved the delivery; never shown on the public tracking page',
        },
      ),
    ),
  }),
);

const GET_EXAMPLES = [
  {
    name: 'in_transit',
    summary: 'An order on its way',
    request: { order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE' },
    response: {
      status: 'success',
      message: 'Order retrieved',
      data: {
        order_reference: 'shop-10023',
        internal_order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE',
        status: 'in_transit',
        status_details: {
          description: 'The package is on its way to the recipient.',
          timestamp: '2025-11-21T13:05:00.000Z',
        },
        order_info: {
          recipient_name: 'Ama Mensah',
          recipient_phone: '+233241234567',
          recipient_address: '12 Oxford Street, Accra',
          delivery_date: '2025-11-21',
          pickup_date: '2025-11-21',
          payment_status: 'pending',
          amount: 25.5,
        },
        tracking_url: 'https://partners.example.com/track/q3VbN8x2LmT0cR5wYk7dHs1a',
      },
    },
  },
  {
    name: 'delivered_with_photo',
    summary: 'A delivery proved by a photo (the recipient could not give the code)',
    request: { order_reference: 'shop-10024' },
    response: {
      status: 'success',
      message: 'Order retrieved',
      data: {
        order_reference: 'shop-10024',
        internal_order_id: 'dlv_01JD2X9C4H7K2M5P8R1T3V6W9Y',
        status: 'delivered',
        status_details: {
          description: 'The package was delivered.',
          timestamp: '2025-11-21T15:42:10.000Z',
        },
        order_info: {
          recipient_name: 'Yaw Boateng',
          delivery_date: '2025-11-21',
          pickup_date: '2025-11-21',
          payment_status: 'collected',
          amount: 25.5,
        },
        tracking_url: 'https://partners.example.com/track/Zt6sP0aQ9wE3rY7uI1oP5aS8',
        proof_of_delivery: {
          method: 'photo',
          recorded_at: '2025-11-21T15:41:58.000Z',
          media: [
            {
              kind: 'photo',
              url: 'https://partners.example.com/media/proofs/prf_01JD2XA0B1C2D3E4F5G6H7J8K9?exp=1763740618&sig=Q2hlY2sgdGhlIHNpZ25hdHVyZSB3aXRoIHRoZSBrZXkgb25seQ',
              content_type: 'image/jpeg',
              taken_at: '2025-11-21T15:41:58.000Z',
              expires_at: '2025-11-21T15:56:58.000Z',
            },
          ],
        },
      },
    },
  },
];

/** Without the proof module (an instance serving delivery alone), no order shows a proof. */
const NO_PROOF: ReadAlongside<undefined> = { column: () => 'null', read: () => undefined };

export const ordersGet = (orders: OrdersService, publicBaseUrl: string, proofs?: ProofReader) =>
  defineOperation({
    id: 'delivery.orders.get',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.get',
    summary: "Get an order's details and status",
    scope: 'delivery:read',
    access: 'read',
    body: OrderLookupBody,
    errorCodes: ['ORDER_NOT_FOUND'],
    response: OrderDetailsResponse,
    examples: GET_EXAMPLES,
    handler: async ({ body, auth }) => {
      // The order, its timeline and its proof in one statement.
      const { order, events, alongside } = await orders.getWith(
        auth,
        body,
        proofs?.alongside ?? NO_PROOF,
      );
      return success('Order retrieved', detailsView(order, events, publicBaseUrl, alongside));
    },
  });
