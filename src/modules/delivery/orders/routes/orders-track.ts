import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DateTime, DeliverySuccess } from '../../../../platform/http/openapi-shapes.ts';
import { StringEnum } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES, isStop } from '../../domain/index.ts';
import type { ReadAlongside } from '../alongside.ts';
import type { CourierTracker } from '../courier-tracker.ts';
import type { OrdersService } from '../service.ts';
import { trackView } from '../views.ts';
import { FailureFields, OrderIdBody, success } from './common.ts';

/** The 200 body, for the reference and the docs tests. */
export const TrackingResponse = DeliverySuccess(
  Type.Object({
    order_id: Type.String(),
    order_reference: Type.String(),
    recipient_name: Type.Optional(Type.String()),
    recipient_phone_last4: Type.String({
      pattern: '^\\d{4}$',
      description: 'The last four digits of the phone only',
    }),
    current_status: StringEnum(DELIVERY_STATUSES),
    estimated_delivery_time: Type.Optional(DateTime()),
    timeline: Type.Array(
      Type.Object({
        status: StringEnum(DELIVERY_STATUSES),
        title: Type.String(),
        timestamp: Type.Optional(DateTime('First time the stage was reached')),
        completed: Type.Boolean(),
      }),
      {
        description:
          'The five stages in order, then returning, returned, failed and cancelled entries when they happened, in time order',
      },
    ),
    ...FailureFields,
    courier: Type.Optional(
      Type.Object(
        {
          position: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
          updated_at: DateTime('When the courier reported that position'),
          eta: Type.Union([DateTime(), Type.Null()], {
            description:
              'When the courier is expected at their next stop; null when its coordinates are unknown',
          }),
          next_stop: StringEnum(
            ['pickup', 'dropoff'] as const,
            'The pickup point until the parcel is picked up, then the drop-off',
          ),
        },
        {
          description:
            'Present only while a courier is on the job and has reported a position; never once the order is delivered, returned, failed or cancelled',
        },
      ),
    ),
  }),
);

const stage = (status: string, title: string, timestamp?: string) => ({
  status,
  title,
  ...(timestamp ? { timestamp } : {}),
  completed: Boolean(timestamp),
});

const TRACK_EXAMPLES = [
  {
    name: 'picked_up',
    summary: 'Picked up, not yet in transit',
    request: { order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE' },
    response: {
      status: 'success',
      message: 'Tracking retrieved',
      data: {
        order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE',
        order_reference: 'shop-10023',
        recipient_name: 'Ama Mensah',
        recipient_phone_last4: '4567',
        current_status: 'pickedUp',
        estimated_delivery_time: '2025-11-21T18:00:00.000Z',
        timeline: [
          stage('placed', 'Order placed', '2025-11-21T09:30:00.000Z'),
          stage('accepted', 'Accepted by courier', '2025-11-21T10:02:00.000Z'),
          stage('pickedUp', 'Picked up', '2025-11-21T11:40:00.000Z'),
          stage('in_transit', 'In transit'),
          stage('delivered', 'Delivered'),
        ],
      },
    },
  },
];

/** Without dispatch's tracker, no courier is shown. */
const NO_COURIER: ReadAlongside<Promise<undefined>> = {
  column: () => 'null',
  read: async () => undefined,
};

export const ordersTrack = (orders: OrdersService, tracker?: CourierTracker) =>
  defineOperation({
    id: 'delivery.orders.track',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.track',
    summary: "Get an order's tracking timeline (phone masked to the last four digits)",
    scope: 'delivery:read',
    access: 'read',
    body: OrderIdBody,
    errorCodes: ['ORDER_NOT_FOUND'],
    response: TrackingResponse,
    examples: TRACK_EXAMPLES,
    handler: async ({ body, auth }) => {
      // The order, its timeline and its courier's job and position in one statement.
      const { order, events, alongside } = await orders.getWith(
        auth,
        body,
        tracker?.alongside ?? NO_COURIER,
        'tracking',
      );
      const progress = await alongside;
      const live = order.status !== 'delivered' && !isStop(order.status);
      const courier = live ? progress : undefined;
      return success('Tracking retrieved', {
        ...trackView(order, events),
        ...(courier ? { courier } : {}),
      });
    },
  });
