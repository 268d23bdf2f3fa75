import type { Environment } from '../../platform/auth/scopes.ts';
import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { scopedClockId } from '../../platform/clock-scope.ts';
import { currentTraceparent } from '../../platform/tracing.ts';

export type EventType =
  | 'delivery.order.created'
  | 'delivery.order.status_changed'
  | 'delivery.order.cancelled'
  | 'delivery.order.returning'
  | 'delivery.order.returned'
  | 'delivery.courier.location'
  | 'delivery.order.late'
  | 'wallet.topup.credited'
  | 'wallet.refund.completed'
  | 'safe.order.paid'
  | 'safe.order.confirmed'
  | 'safe.order.failed'
  | 'safe.order.on_hold'
  | 'safe.order.refund_due'
  | 'safe.order.refunded'
  | 'safe.order.refund_reversed'
  | 'payout.paid'
  | 'payout.failed';

export interface OutboxEvent {
  appId: string;
  environment: Environment;
  type: EventType;
  /** The order, top-up, sale or payout the event is about. */
  subjectId: string;
  sequence: number;
  destinationUrl: string | null;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * An outbox insert ready to run alone or to join another statement (as a data-modifying CTE). It
 * returns the event's `delivery_status`: only a `pending` one is for a dispatcher to send
 * (`eventsWritten`); one nobody is to receive is finished as it is written.
 */
export interface EventStatement {
  id: string;
  sql: string;
  params: unknown[];
}

/**
 * The insert that appends `event` to the outbox, numbering its parameters from `firstParam`, so a
 * module can write its change and the event in one statement (atomic without a transaction). With
 * tracing on, the event keeps the trace it was written in, for its delivery.
 */
export function eventStatement(event: OutboxEvent, firstParam = 1): EventStatement {
  const id = newId('evt');
  const payload = {
    id,
    type: event.type,
    created_at: event.at.toISOString(),
    environment: event.environment,
    data: event.data,
  };
  const params = [
    id,
    event.appId,
    event.environment,
    event.type,
    event.subjectId,
    event.sequence,
    event.destinationUrl,
    JSON.stringify(payload),
    event.at,
    currentTraceparent(),
    // An event raised at a sandbox test clock's time is retried in that time (see clock-retries.ts).
    scopedClockId() ?? null,
  ];
  const n = (i: number) => `$${firstParam + i}`;
  // An event nobody is to receive (no URL of its own, none on its app) is finished as it is written,
  // as the dispatcher would finish it on its first look: no claim, no second row version.
  const unaddressed = `${n(6)}::text is null and not exists (select 1 from apps a where a.id = ${n(1)} and a.webhook_url is not null)`;
  return {
    id,
    sql: `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, destination_url, payload, created_at, traceparent, test_clock_id, delivery_status, last_error)
     values (${params.map((_, i) => n(i)).join(', ')},
       case when ${unaddressed} then 'no_destination' else 'pending' end,
       case when ${unaddressed} then '${NO_DESTINATION_ERROR}' end)
     returning delivery_status`,
    params,
  };
}

/** Why an event went nowhere (its last_error), as the dashboard and the operator API show it. */
export const NO_DESTINATION_ERROR = 'no webhook URL for this app';

/** What dispatchers listen on (`Db.listen`) for events to send. */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * Wakes the dispatchers once `q`'s transaction commits, so a new (or newly due) event is sent now
 * rather than at their next poll. A caller that ran an `eventStatement` itself calls this after it.
 */
export function eventsWritten(q: Queryable): void {
  q.notify(OUTBOX_CHANNEL);
}

/**
 * Appends a webhook event; callers pass their transaction so the event exists exactly when the
 * change that caused it does.
 */
export async function appendEvent(tx: Queryable, event: OutboxEvent): Promise<string> {
  const { id, sql, params } = eventStatement(event);
  const [written] = await tx.query<{ delivery_status: string }>(sql, params);
  if (written?.delivery_status === 'pending') eventsWritten(tx);
  return id;
}
