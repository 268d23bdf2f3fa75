import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnyWebhookEvent,
  CreateOrderRequest,
  DeliveryStatus,
  HealthOk,
  Priority,
  SafeOrderLookup,
  TopupVerifyResponse,
  WebhookEventOf,
} from '../src/types.ts';
import type { verifyWebhook } from '../src/webhooks.ts';

// Checked by the type checker (`npm run typecheck`): the named aliases resolve to the generated
// shapes, not to never or any, so a broken alias cannot let everything through.

describe('SDK types', () => {
  it('name the shapes generated from the OpenAPI document', () => {
    expectTypeOf<HealthOk>().toEqualTypeOf<{ status: 'ok' }>();
    expectTypeOf<DeliveryStatus>().toEqualTypeOf<
      | 'placed'
      | 'accepted'
      | 'pickedUp'
      | 'in_transit'
      | 'delivered'
      | 'returning'
      | 'returned'
      | 'cancelled'
      | 'failed'
    >();
    expectTypeOf<Priority>().toEqualTypeOf<'standard' | 'economy' | 'cargo'>();
    expectTypeOf<CreateOrderRequest['order_reference']>().toEqualTypeOf<string>();
    expectTypeOf<TopupVerifyResponse['data']['state']>().toEqualTypeOf<
      'credited' | 'already_credited' | 'pending'
    >();
    expectTypeOf<{ sale_id: string }>().toExtend<SafeOrderLookup>();
    expectTypeOf<{ external_reference: string }>().toExtend<SafeOrderLookup>();
  });

  it('type each webhook event by its type', () => {
    expectTypeOf<
      Extract<AnyWebhookEvent, { type: 'wallet.topup.credited' }>['data']['balance_ghs']
    >().toEqualTypeOf<number>();
    expectTypeOf<
      Extract<AnyWebhookEvent, { type: 'delivery.order.cancelled' }>['data']['cancellation_reason']
    >().toEqualTypeOf<string | null>();
    expectTypeOf<'safe.order.refund_due'>().toExtend<AnyWebhookEvent['type']>();
    expectTypeOf<
      Extract<AnyWebhookEvent, { type: 'delivery.order.returned' }>['data']['return_fee_ghs']
    >().toEqualTypeOf<number | undefined>();
    expectTypeOf<'delivery.order.deleted'>().not.toExtend<AnyWebhookEvent['type']>();
  });

  it('verifyWebhook answers that union, so a check of `type` narrows `data`', () => {
    expectTypeOf<ReturnType<typeof verifyWebhook>>().toEqualTypeOf<AnyWebhookEvent>();
    const narrow = (event: ReturnType<typeof verifyWebhook>) =>
      event.type === 'safe.order.paid' ? event.data : undefined;
    expectTypeOf(narrow).returns.toEqualTypeOf<
      WebhookEventOf<'safe.order.paid'>['data'] | undefined
    >();
  });
});
