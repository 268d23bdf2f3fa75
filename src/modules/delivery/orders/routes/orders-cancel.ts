import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DateTime, DeliverySuccess } from '../../../../platform/http/openapi-shapes.ts';
import { FreeText, StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import type { OrdersService } from '../service.ts';
import { cancelledView } from '../views.ts';
import { success } from './common.ts';

/** The 200 body, for the reference and the docs tests. */
export const CancelledResponse = DeliverySuccess(
  Type.Object({
    order_reference: Type.String(),
    internal_order_id: Type.String(),
    status: Type.Literal('cancelled'),
    cancelled_at: DateTime(),
    cancellation_reason: Type.String({ description: 'The reason sent, else empty' }),
    refund_status: StringEnum(
      ['pending', 'not_applicable'] as const,
      'pending for wallet-funded orders until the refund is posted',
    ),
  }),
);

const CANCEL_EXAMPLES = [
  {
    name: 'cancel',
    summary: 'Cancel a recipient-pays order',
    request: { order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE', reason: 'Customer changed their mind' },
    response: {
      status: 'success',
      message: 'Order cancelled',
      data: {
        order_reference: 'shop-10023',
        internal_order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE',
        status: 'cancelled',
        cancelled_at: '2025-11-21T10:15:00.000Z',
        cancellation_reason: 'Customer changed their mind',
        refund_status: 'not_applicable',
      },
    },
  },
];

export const ordersCancel = (orders: OrdersService) =>
  defineOperation({
    id: 'delivery.orders.cancel',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.cancel',
    summary:
      'Cancel an order that is not delivered, cancelled, returning or returned yet (a returned order keeps its fee and pays the return fee instead)',
    scope: 'delivery:write',
    access: 'write',
    body: strictObject({
      order_id: Type.String({ minLength: 1, maxLength: 64 }),
      reason: Type.Optional(FreeText(500)),
    }),
    errorCodes: ['ORDER_NOT_FOUND', 'INVALID_ORDER_STATUS'],
    response: CancelledResponse,
    examples: CANCEL_EXAMPLES,
    handler: async ({ body, auth }) =>
      success(
        'Order cancelled',
        cancelledView(await orders.cancel(auth, body.order_id, body.reason)),
      ),
  });
