import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DateTime, DeliverySuccess, IsoDate } from '../../../../platform/http/openapi-shapes.ts';
import { StringEnum } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES } from '../../domain/index.ts';
import type { OrdersService } from '../service.ts';
import { detailsView } from '../views.ts';
import { OrderLookupBody, success } from './common.ts';

/** The 200 body, for the reference and the docs tests (design: Response shapes, fixes the loose fields). */
export const OrderDetailsResponse = DeliverySuccess(
  Type.Object({
    order_reference: Type.String(),
    internal_order_id: Type.String({ description: 'The platform order id (the order_id of orders.get, orders.track, orders.cancel)' }),
    status: StringEnum(DELIVERY_STATUSES),
    status_details: Type.Object({ description: Type.String({ description: 'One plain sentence' }), timestamp: Type.Optional(DateTime('Last status change')) }),
    order_info: Type.Object({
      recipient_name: Type.Optional(Type.String()),
      recipient_phone: Type.Optional(Type.String()),
      recipient_address: Type.Optional(Type.String()),
      delivery_date: Type.Optional(IsoDate()),
      pickup_date: Type.Optional(IsoDate('The requested date, else the pickup day')),
      payment_status: Type.Optional(StringEnum(['pending', 'collected', 'wallet_debited', 'refund_pending', 'refunded'] as const, 'pending: the recipient pays on delivery')),
      amount: Type.Optional(Type.Number({ description: 'Delivery fee in GHS' })),
    }),
    tracking_url: Type.String({ format: 'uri', description: 'Public tracking page for the recipient' }),
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
        status_details: { description: 'The package is on its way to the recipient.', timestamp: '2025-11-21T13:05:00.000Z' },
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
];

export const ordersGet = (orders: OrdersService, publicBaseUrl: string) =>
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
      const { order, events } = 'order_id' in body ? await orders.get(auth, body.order_id) : await orders.getByReference(auth, body.order_reference);
      return success('Order retrieved', detailsView(order, events, publicBaseUrl));
    },
  });
