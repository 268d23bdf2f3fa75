import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { DateTime, Ghs, PesewasAndGhs } from '../../platform/http/openapi-shapes.ts';
import type { WebhookEventDoc } from '../../platform/http/openapi-webhooks.ts';
import { StringEnum } from '../../platform/http/schemas.ts';
import type { EventType } from './outbox.ts';

/**
 * The `data` of every webhook event, as the code that appends each event builds it (delivery
 * orders' service, the sale lifecycle, the wallet's top-up verify, the refund worker and the payouts' sender). The
 * reference publishes them; the webhooks tests validate every event the server emits against them.
 * Open objects: v1 may add fields.
 */

/** The value sets event data draws from, owned by the modules that emit the events. */
export interface EventValues {
  deliveryStatuses: readonly string[];
  /** Why a delivery could not be made (delivery's FailureReason values). */
  failureReasons: readonly string[];
  saleStates: readonly string[];
  salePaymentStatuses: readonly string[];
}

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Timestamp = DateTime('When the change happened: the same instant as created_at');

const balanceChange = (subject: TProperties, summary: string) =>
  Type.Object({
    ...subject,
    amount_ghs: Ghs(summary),
    balance_ghs: Ghs('The wallet balance after it'),
    timestamp: Timestamp,
  });

/**
 * Every event type's documentation, keyed by the outbox's EventType so a new type cannot go
 * undocumented. The app passes the value sets in: webhooks imports neither delivery nor catalog,
 * which both write to its outbox.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the list of documented events, one entry per type
export function webhookEvents(values: EventValues): Record<EventType, WebhookEventDoc> {
  const DeliveryStatus = StringEnum(values.deliveryStatuses);
  // Present once a delivery attempt has failed, on every later status event of the order.
  const failure = {
    delivery_attempts: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Trips to the recipient so far; present once a delivery attempt failed',
      }),
    ),
    failure_reason: Type.Optional(
      StringEnum(
        values.failureReasons,
        'Why the latest attempt failed; present once a delivery attempt failed',
      ),
    ),
    failure_note: Type.Optional(
      Nullable(Type.String({ description: "The courier's or operator's note on the failure" })),
    ),
  };
  const deliveryOrder = (extra: TProperties = {}) =>
    Type.Object({
      order_id: Type.String(),
      order_reference: Type.String(),
      status: DeliveryStatus,
      previous_status: Type.Union([DeliveryStatus, Type.Null()], {
        description: 'null on delivery.order.created',
      }),
      timestamp: Timestamp,
      sequence: Type.Integer({
        minimum: 1,
        description:
          'Per order, increasing: an event with a lower sequence than one already handled is stale',
      }),
      ...failure,
      ...extra,
    });
  const sale = (
    extra: TProperties = {
      gateway_amount_ghs: Type.Optional(
        Ghs('What the gateway collected, once it reported a payment'),
      ),
    },
  ) =>
    Type.Object({
      sale_id: Type.String(),
      reference: Type.String(),
      external_reference: Nullable(Type.String()),
      payment_method: StringEnum(['online', 'cod'] as const),
      state: StringEnum(values.saleStates),
      payment_status: StringEnum(values.salePaymentStatuses),
      total_ghs: Ghs('The sale total'),
      ...extra,
      refund_due_ghs: Type.Optional(Ghs('Present when the buyer is owed money back')),
      timestamp: Timestamp,
    });
  const payout = () =>
    Type.Object({
      payout_id: Type.String(),
      status: StringEnum(['paid', 'failed'] as const),
      ...PesewasAndGhs('amount', 'What was sent (paid) or is owed again (failed)'),
      ...PesewasAndGhs('fee', "The provider's transfer fee, borne by the platform", true),
      failure_reason: Nullable(Type.String({ description: 'Why it failed (payout.failed)' })),
      timestamp: Timestamp,
    });
  const RefundMethod = StringEnum(
    ['gateway_refund', 'mobile_money'] as const,
    "gateway_refund: back through the payment's own channel; mobile_money: a transfer to the buyer's wallet",
  );
  const delivery = (summary: string, data: TSchema = deliveryOrder()): WebhookEventDoc => ({
    service: 'delivery',
    summary,
    data,
  });
  const safe = (summary: string, data: TSchema = sale()): WebhookEventDoc => ({
    service: 'safe-catalog',
    summary,
    data,
  });

  return {
    'delivery.order.created': delivery('A delivery order was created'),
    'delivery.order.status_changed': delivery(
      'A delivery order moved to another status (in_transit → in_transit is another delivery attempt after a failed one, with its failure_reason)',
    ),
    'delivery.order.cancelled': delivery(
      'A delivery order was cancelled',
      deliveryOrder({
        cancellation_reason: Nullable(
          Type.String({ description: 'The reason given at cancel, if any' }),
        ),
      }),
    ),
    'delivery.order.returning': delivery(
      'A delivery order could not be delivered and is going back to its pickup point (failure_reason says why)',
    ),
    'delivery.order.returned': delivery(
      'A delivery order was returned to its pickup point. A wallet-funded order keeps its delivery fee and is charged the return fee',
      deliveryOrder({
        return_fee_ghs: Type.Optional(
          Ghs('The return fee charged to the wallet (wallet-funded orders only, once)'),
        ),
      }),
    ),
    'delivery.courier.location': delivery(
      'Where the courier on a production order is, while on the job (at most one per order every 20 seconds; none once the order is delivered, returned, failed or cancelled)',
      Type.Object({
        order_id: Type.String(),
        order_reference: Type.String(),
        courier: Type.Object({ position: Type.Object({ lat: Type.Number(), lng: Type.Number() }) }),
        next_stop: StringEnum(
          ['pickup', 'dropoff'] as const,
          'The pickup point until the parcel is picked up, then the drop-off',
        ),
        eta: Type.Union([DateTime('When the courier is expected at the next stop'), Type.Null()], {
          description: 'null when the next stop has no coordinates',
        }),
        recorded_at: DateTime('When the courier reported the position'),
      }),
    ),
    'delivery.order.late': delivery(
      "An order with a dropoff_deadline will miss it: no courier had taken it by the deadline less the expected pickup-to-drop-off travel time (reason no_courier), or its courier's expected arrival at the drop-off is past the deadline (reason eta_after_deadline). Sent at most once per order; the order goes on as usual",
      Type.Object({
        order_id: Type.String(),
        order_reference: Type.String(),
        status: DeliveryStatus,
        reason: StringEnum(['no_courier', 'eta_after_deadline'] as const),
        pickup_ready_at: Type.Union([DateTime('As orders.create was given it'), Type.Null()], {
          description: 'null when the order gave only a deadline',
        }),
        dropoff_deadline: DateTime('The deadline that will be missed'),
        eta: Type.Union([DateTime('When the courier is expected at the drop-off'), Type.Null()], {
          description: 'null for no_courier',
        }),
        timestamp: Timestamp,
      }),
    ),
    'wallet.topup.credited': delivery(
      'A wallet top-up was credited (production only)',
      balanceChange(
        { client_reference: Type.String() },
        'The amount the gateway confirmed, credited',
      ),
    ),
    'wallet.refund.completed': delivery(
      "A cancelled wallet-funded order's fee was refunded to the wallet",
      balanceChange(
        { order_id: Type.String(), order_reference: Type.String() },
        'The fee refunded',
      ),
    ),
    'safe.order.paid': safe('An online sale was paid at the gateway'),
    'safe.order.confirmed': safe(
      'A sale was confirmed: paid online, or delivered and collected (cod)',
    ),
    'safe.order.failed': safe(
      'A sale failed (declined, expired, not collected, or its delivery ended without it)',
      sale({
        failure_reason: Type.Optional(Type.String({ description: 'Why, e.g. delivery_cancelled' })),
      }),
    ),
    'safe.order.on_hold': safe(
      'The gateway collected another amount than the sale total: the sale is held for review',
    ),
    'safe.order.refund_due': safe(
      'The gateway collected a payment for a sale that had already failed: it is owed back',
    ),
    'safe.order.refunded': safe(
      'What the buyer was owed (refund_due_ghs) went back to them: through the gateway that collected it, or to their mobile money wallet (payment_status refunded)',
      sale({
        gateway_amount_ghs: Type.Optional(Ghs('What the gateway collected')),
        refund: Type.Object({
          method: RefundMethod,
          amount_ghs: Ghs('What went back to the buyer'),
          refunded_at: DateTime('When the provider confirmed it'),
        }),
      }),
    ),
    'safe.order.refund_reversed': safe(
      "The provider reversed a refund after it had succeeded (the money came back): the buyer is owed it again (payment_status refund_due) until an operator's new attempt succeeds, which sends safe.order.refunded again",
      sale({
        gateway_amount_ghs: Type.Optional(Ghs('What the gateway collected')),
        refund: Type.Object({
          method: RefundMethod,
          amount_ghs: Ghs('What came back'),
          reversed_at: DateTime('When we learned of the reversal'),
          reason: Type.String({ description: "The provider's reason, in its words" }),
        }),
      }),
    ),
    'payout.paid': safe(
      'A payout of your markup reached your destination (production only; sent to each app with a live production key)',
      payout(),
    ),
    'payout.failed': safe(
      'A payout of your markup failed at the transfer provider: the amount is owed to you again and goes out with the next run (production only)',
      payout(),
    ),
  };
}
