import type { Environment } from '../../platform/auth/scopes.ts';
import type { Queryable } from '../../platform/db/index.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'dead' | 'no_destination';

export interface ClaimedEvent {
  id: string;
  app_id: string;
  environment: Environment;
  type: string;
  destination_url: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  /** The trace the event was written in (tracing on), which its delivery continues. */
  traceparent: string | null;
}

export interface EventRow extends Omit<ClaimedEvent, 'traceparent'> {
  subject_id: string;
  sequence: number;
  delivery_status: DeliveryStatus;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface AttemptRow {
  attempt: number;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  at: Date;
}

export interface AppWebhookRow {
  webhook_url: string | null;
  webhook_secret_sealed: string;
  previous_webhook_secret_sealed: string | null;
  previous_webhook_secret_expires_at: Date | null;
}

export interface Backlog {
  pending: number;
  dead: number;
  oldestPendingAt: Date | null;
}

const EVENT_COLS = `id, app_id, environment, type, subject_id, sequence, destination_url, payload, attempts, delivery_status,
  next_attempt_at, last_status_code, last_error, delivered_at, created_at`;

export const webhooksRepository = {
  /**
   * Leases up to `limit` due events to this dispatcher, leaving those of `saturatedApps` (whose
   * endpoint has no place for more here). SKIP LOCKED lets several dispatchers claim at once without
   * waiting on each other or taking the same event.
   */
  async claim(db: Queryable, now: Date, leaseUntil: Date, limit: number, saturatedApps: readonly string[] = []): Promise<ClaimedEvent[]> {
    return db.query<ClaimedEvent>(
      `update outbox_events set lease_until = $2
        where id in (select id from outbox_events
                      where delivery_status = 'pending' and next_attempt_at <= $1 and (lease_until is null or lease_until < $1)
                        and (destination_url is not null or not (app_id = any($4::text[])))
                      order by next_attempt_at limit $3 for update skip locked)
        returning id, app_id, environment, type, destination_url, payload, attempts, traceparent`,
      [now, leaseUntil, limit, saturatedApps],
    );
  },

  /**
   * Finishes, as `no_destination`, due events with no URL of their own whose app has none either
   * (the per-event path would spend a transaction on each). Answers how many it finished.
   */
  async finishUnaddressed(db: Queryable, now: Date, limit: number): Promise<number> {
    const rows = await db.query(
      `update outbox_events set delivery_status = 'no_destination', lease_until = null, last_error = 'no webhook URL for this app'
        where id in (select e.id from outbox_events e join apps a on a.id = e.app_id
                      where e.delivery_status = 'pending' and e.next_attempt_at <= $1 and (e.lease_until is null or e.lease_until < $1)
                        and e.destination_url is null and a.webhook_url is null
                      order by e.next_attempt_at limit $2 for update of e skip locked)
        returning id`,
      [now, limit],
    );
    return rows.length;
  },

  /** Extends a lease that is still exactly ours (compare-and-set on its expiry). */
  async renewLease(db: Queryable, id: string, current: Date, next: Date): Promise<boolean> {
    const rows = await db.query('update outbox_events set lease_until = $3 where id = $1 and lease_until = $2 returning id', [id, current, next]);
    return rows.length > 0;
  },

  /** Hands a claimed event back untried, to be claimed again from `retryAt`. */
  async release(db: Queryable, id: string, retryAt: Date): Promise<void> {
    await db.query('update outbox_events set lease_until = null, next_attempt_at = $2 where id = $1', [id, retryAt]);
  },

  /**
   * Records a delivery's outcome in one statement: its attempt (when one was made), the endpoint
   * disabled (after a 410) and the event's new state. One statement is atomic without a transaction.
   */
  async settle(
    db: Queryable,
    e: { id: string; appId: string; status: DeliveryStatus; attempts: number; nextAttemptAt?: Date; error: string | null; at: Date; disable: boolean },
    attempt: { url: string; statusCode: number | null; latencyMs: number; error: string | null; excerpt: string | null } | null,
  ): Promise<void> {
    await db.query(
      `with attempt as (insert into webhook_attempts (event_id, attempt, url, status_code, latency_ms, error, response_excerpt, at)
                          select $1, $3, $8, $5, $9, $10, $11, $7 where $8::text is not null),
            gone as (insert into webhook_disabled_endpoints (app_id, url, disabled_at)
                       select $12, $8, $7 where $8::text is not null and $13::boolean on conflict do nothing)
       update outbox_events set delivery_status = $2, attempts = $3, next_attempt_at = coalesce($4, next_attempt_at), last_status_code = $5,
              last_error = $6, lease_until = null, delivered_at = case when $2 = 'delivered' then $7 else delivered_at end
        where id = $1`,
      [e.id, e.status, e.attempts, e.nextAttemptAt ?? null, attempt?.statusCode ?? null, e.error, e.at, attempt?.url ?? null,
        attempt?.latencyMs ?? null, attempt?.error ?? null, attempt?.excerpt ?? null, e.appId, e.disable],
    );
  },

  /** Where an event goes (its own URL, else its app's), with the app's secrets and whether that endpoint is disabled. */
  async target(db: Queryable, appId: string, destinationUrl: string | null): Promise<(AppWebhookRow & { url: string | null; disabled: boolean }) | undefined> {
    return (
      await db.query<AppWebhookRow & { url: string | null; disabled: boolean }>(
        `select a.webhook_url, a.webhook_secret_sealed, a.previous_webhook_secret_sealed, a.previous_webhook_secret_expires_at,
                coalesce($2::text, a.webhook_url) as url,
                exists (select 1 from webhook_disabled_endpoints d where d.app_id = a.id and d.url = coalesce($2::text, a.webhook_url)) as disabled
           from apps a where a.id = $1`,
        [appId, destinationUrl],
      )
    )[0];
  },

  async enable(db: Queryable, appId: string, url: string): Promise<boolean> {
    return (await db.query('delete from webhook_disabled_endpoints where app_id = $1 and url = $2 returning url', [appId, url])).length > 0;
  },

  async list(db: Queryable, f: { appId?: string; status?: DeliveryStatus; limit: number; before?: string }): Promise<EventRow[]> {
    return db.query<EventRow>(
      `select ${EVENT_COLS} from outbox_events
        where ($1::text is null or app_id = $1) and ($2::text is null or delivery_status = $2) and ($3::text is null or id < $3)
        order by id desc limit $4`,
      [f.appId ?? null, f.status ?? null, f.before ?? null, f.limit],
    );
  },

  async get(db: Queryable, id: string): Promise<EventRow | undefined> {
    return (await db.query<EventRow>(`select ${EVENT_COLS} from outbox_events where id = $1`, [id]))[0];
  },

  async attempts(db: Queryable, eventId: string): Promise<AttemptRow[]> {
    return db.query<AttemptRow>('select attempt, url, status_code, latency_ms, error, response_excerpt, at from webhook_attempts where event_id = $1 order by id', [eventId]);
  },

  /** Counts from the backlog index, which holds only pending and dead events. */
  async backlog(db: Queryable): Promise<Backlog> {
    const rows = await db.query<{ delivery_status: string; n: number; oldest: Date }>(
      `select delivery_status, count(*) as n, min(created_at) as oldest from outbox_events
        where delivery_status in ('pending', 'dead') group by delivery_status`,
    );
    const of = (status: string) => rows.find((r) => r.delivery_status === status);
    return { pending: of('pending')?.n ?? 0, dead: of('dead')?.n ?? 0, oldestPendingAt: of('pending')?.oldest ?? null };
  },

  /** Sends again from the first attempt of the schedule; answers the events it reset. */
  async replay(db: Queryable, f: { id?: string; appId?: string; since?: Date }, now: Date): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `update outbox_events set delivery_status = 'pending', attempts = 0, next_attempt_at = $4, lease_until = null, last_error = null
        where delivery_status <> 'pending' and ($1::text is null or id = $1)
          and ($2::text is null or (app_id = $2 and delivery_status = 'dead')) and ($3::timestamptz is null or created_at >= $3)
        returning id`,
      [f.id ?? null, f.appId ?? null, f.since ?? null, now],
    );
    return rows.map((r) => r.id);
  },
};
