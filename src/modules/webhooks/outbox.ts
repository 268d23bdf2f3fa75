import type { Environment } from '../../platform/auth/scopes.ts';
import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { currentTraceparent } from '../../platform/tracing.ts';

export type EventType =
  | 'delivery.order.created'
  | 'delivery.order.status_changed'
  | 'delivery.order.cancelled'
  | 'wallet.topup.credited'
  | 'wallet.refund.completed'
  | 'safe.order.paid'
  | 'safe.order.confirmed'
  | 'safe.order.failed'
  | 'safe.order.on_hold'
  | 'safe.order.refund_due';

export interface OutboxEvent {
  appId: string;
  environment: Environment;
  type: EventType;
  /** The order, top-up or sale the event is about. */
  subjectId: string;
  sequence: number;
  destinationUrl: string | null;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Appends a webhook event; callers pass their transaction so the event exists exactly when the
 * change that caused it does. With tracing on it keeps the trace it was written in, for its delivery.
 */
export async function appendEvent(tx: Queryable, event: OutboxEvent): Promise<string> {
  const id = newId('evt');
  const payload = {
    id,
    type: event.type,
    created_at: event.at.toISOString(),
    environment: event.environment,
    data: event.data,
  };
  await tx.query(
    `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, destination_url, payload, created_at, traceparent)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [id, event.appId, event.environment, event.type, event.subjectId, event.sequence, event.destinationUrl, JSON.stringify(payload), event.at, currentTraceparent()],
  );
  return id;
}
