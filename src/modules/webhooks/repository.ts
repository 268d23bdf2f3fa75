import type { Environment } from '../../platform/auth/scopes.ts';
import type { Queryable } from '../../platform/db/index.ts';
import { NO_DESTINATION_ERROR } from './outbox.ts';

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

/** A claimed event with where it goes: its own URL, else its app's. */
export interface ClaimedDelivery extends ClaimedEvent, AppSecrets {
  url: string;
  disabled: boolean;
}

/**
 * A delivery's outcome. The attempt fields (`url`, `statusCode`, `latencyMs`, `attemptError`,
 * `excerpt`) are set only when an attempt was made.
 */
export interface Settlement {
  id: string;
  appId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt?: Date;
  /** The retry's wait without jitter (a test clock's event waits it in clock time instead). */
  retryDelayMs?: number;
  error: string | null;
  at: Date;
  disable: boolean;
  url?: string;
  statusCode?: number | null;
  latencyMs?: number;
  attemptError?: string | null;
  excerpt?: string | null;
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

export interface AppSecrets {
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

/**
 * A failed delivery of an event raised on a sandbox test clock is retried in the clock's time: parked
 * (never due in real time) until the clock's advance passes its clock_retry_at, then sent at once.
 */
export const CLOCK_PARKED = `'9999-12-31T00:00:00Z'::timestamptz`;
const CLOCK_RETRY = `e.test_clock_id is not null and s.status = 'pending' and s.retry_delay_ms is not null`;

/** How many more of an app's (URL-less) events its endpoint's turns and queue can take in this dispatcher. */
export interface AppRoom {
  appId: string;
  room: number;
}

export const webhooksRepository = {
  /**
   * Takes up to `limit` due events in one statement, none of an app whose endpoint has no room here
   * (`rooms`, known for the apps this dispatcher is sending to) and of one with room no more than
   * that, first due first: taking more only handed the excess back, a second statement each time.
   * The room is applied to the first `limit` due events, so the scan is the same index range as
   * without it. Events nobody is to receive (no URL of their own, none on their app) are finished
   * there as `no_destination`; the others are leased to this dispatcher, each with
   * where it goes, the app's secrets and whether that endpoint is disabled, read as it is claimed so a
   * changed URL or secret applies from then on. SKIP LOCKED lets several dispatchers claim at once
   * without waiting on each other or taking the same event.
   */
  async claim(
    db: Queryable,
    now: Date,
    leaseUntil: Date,
    limit: number,
    rooms: readonly AppRoom[] = [],
  ): Promise<{ events: ClaimedDelivery[]; unaddressed: number }> {
    const full = rooms.filter((r) => r.room === 0);
    const open = rooms.filter((r) => r.room > 0);
    const rows = await db.query<ClaimedDelivery & { unaddressed: number }>(
      `with candidates as (
         select e.id, e.app_id, e.next_attempt_at, e.destination_url is null as app_bound,
                e.destination_url is null and a.webhook_url is null as unaddressed
           from outbox_events e join apps a on a.id = e.app_id
          where e.delivery_status = 'pending' and e.next_attempt_at <= $1 and (e.lease_until is null or e.lease_until < $1)
            and (e.destination_url is not null or not (e.app_id = any($4::text[])))
          order by e.next_attempt_at limit $3 for update of e skip locked),
       -- Of an app with room, its first candidates up to the room; the others stay unleased (their
       -- row locks end with the statement).
       due as (
         select c.id, c.unaddressed
           from (select c.*, row_number() over (partition by c.app_id, c.app_bound order by c.next_attempt_at, c.id) as nth
                   from candidates c) c
           left join unnest($5::text[], $6::int[]) as r(app_id, room) on r.app_id = c.app_id and c.app_bound
          where r.room is null or c.nth <= r.room),
       finished as (
         update outbox_events e set delivery_status = 'no_destination', lease_until = null, last_error = '${NO_DESTINATION_ERROR}'
           from due where e.id = due.id and due.unaddressed
         returning e.id),
       claimed as (
         update outbox_events e set lease_until = $2
           from due, apps a where e.id = due.id and not due.unaddressed and a.id = e.app_id
         returning e.id, e.app_id, e.environment, e.type, e.destination_url, e.payload, e.attempts, e.traceparent,
                   a.webhook_secret_sealed, a.previous_webhook_secret_sealed, a.previous_webhook_secret_expires_at,
                   coalesce(e.destination_url, a.webhook_url) as url,
                   exists (select 1 from webhook_disabled_endpoints d
                            where d.app_id = a.id and d.url = coalesce(e.destination_url, a.webhook_url)) as disabled)
       -- One row even when nothing was leased, to carry the count finished.
       select f.unaddressed, c.* from (select count(*)::int as unaddressed from finished) f left join claimed c on true`,
      [
        now,
        leaseUntil,
        limit,
        full.map((r) => r.appId),
        open.map((r) => r.appId),
        open.map((r) => r.room),
      ],
    );
    return { events: rows.filter((r) => r.id !== null), unaddressed: rows[0]?.unaddressed ?? 0 };
  },

  /** Extends a lease that is still exactly ours (compare-and-set on its expiry). */
  async renewLease(db: Queryable, id: string, current: Date, next: Date): Promise<boolean> {
    const rows = await db.query(
      'update outbox_events set lease_until = $3 where id = $1 and lease_until = $2 returning id',
      [id, current, next],
    );
    return rows.length > 0;
  },

  /** Hands claimed events back untried, to be claimed again from `retryAt`. */
  async release(db: Queryable, ids: readonly string[], retryAt: Date): Promise<void> {
    await db.query(
      'update outbox_events set lease_until = null, next_attempt_at = $2 where id = any($1::text[])',
      [ids, retryAt],
    );
  },

  /**
   * Records deliveries' outcomes in one statement: each one's attempt (when one was made), the
   * endpoints disabled (after a 410) and the events' new states. One statement is atomic without a
   * transaction; many outcomes in it cost the database one round trip and one commit.
   */
  async settle(db: Queryable, outcomes: readonly Settlement[]): Promise<void> {
    const col = <K extends keyof Settlement>(k: K) => outcomes.map((o) => o[k] ?? null);
    await db.query(
      `with s as (select * from unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::text[], $7::timestamptz[],
                                       $8::text[], $9::int[], $10::int[], $11::text[], $12::text[], $13::boolean[], $14::bigint[])
                     as s(id, app_id, status, attempts, next_attempt_at, error, at, url, status_code, latency_ms, attempt_error, excerpt, disable, retry_delay_ms)),
            attempt as (insert into webhook_attempts (event_id, attempt, url, status_code, latency_ms, error, response_excerpt, at)
                          select id, attempts, url, status_code, latency_ms, attempt_error, excerpt, at from s where url is not null),
            gone as (insert into webhook_disabled_endpoints (app_id, url, disabled_at)
                       select app_id, url, at from s where url is not null and disable on conflict do nothing)
       update outbox_events e set delivery_status = s.status, attempts = s.attempts,
              next_attempt_at = case when ${CLOCK_RETRY} then ${CLOCK_PARKED} else coalesce(s.next_attempt_at, e.next_attempt_at) end,
              clock_retry_at = case when ${CLOCK_RETRY}
                then coalesce(e.clock_retry_at, e.created_at) + s.retry_delay_ms * interval '1 millisecond' else e.clock_retry_at end,
              last_status_code = s.status_code, last_error = s.error, lease_until = null,
              delivered_at = case when s.status = 'delivered' then s.at else e.delivered_at end
         from s where e.id = s.id`,
      [
        col('id'),
        col('appId'),
        col('status'),
        col('attempts'),
        col('nextAttemptAt'),
        col('error'),
        col('at'),
        col('url'),
        col('statusCode'),
        col('latencyMs'),
        col('attemptError'),
        col('excerpt'),
        col('disable'),
        col('retryDelayMs'),
      ],
    );
  },

  async enable(db: Queryable, appId: string, url: string): Promise<boolean> {
    return (
      (
        await db.query(
          'delete from webhook_disabled_endpoints where app_id = $1 and url = $2 returning url',
          [appId, url],
        )
      ).length > 0
    );
  },

  /** Newest first; `type` matches the event type's start (`delivery.order` finds every order event). */
  async list(
    db: Queryable,
    f: { appId?: string; status?: DeliveryStatus; type?: string; limit: number; before?: string },
  ): Promise<EventRow[]> {
    return db.query<EventRow>(
      `select ${EVENT_COLS} from outbox_events
        where ($1::text is null or app_id = $1) and ($2::text is null or delivery_status = $2) and ($3::text is null or id < $3)
          and ($5::text is null or left(type, length($5)) = $5)
        order by id desc limit $4`,
      [f.appId ?? null, f.status ?? null, f.before ?? null, f.limit, f.type ?? null],
    );
  },

  /** Every event about one subject (an order, a sale, a payout): the unique key's leading column. */
  async about(db: Queryable, subjectId: string): Promise<EventRow[]> {
    return db.query<EventRow>(
      `select ${EVENT_COLS} from outbox_events where subject_id = $1 order by created_at, sequence, id`,
      [subjectId],
    );
  },

  async get(db: Queryable, id: string): Promise<EventRow | undefined> {
    return (
      await db.query<EventRow>(`select ${EVENT_COLS} from outbox_events where id = $1`, [id])
    )[0];
  },

  async attempts(db: Queryable, eventId: string): Promise<AttemptRow[]> {
    return db.query<AttemptRow>(
      'select attempt, url, status_code, latency_ms, error, response_excerpt, at from webhook_attempts where event_id = $1 order by id',
      [eventId],
    );
  },

  /** Counts from the backlog index, which holds only pending and dead events. */
  async backlog(db: Queryable): Promise<Backlog> {
    const rows = await db.query<{ delivery_status: string; n: number; oldest: Date }>(
      `select delivery_status, count(*) as n, min(created_at) as oldest from outbox_events
        where delivery_status in ('pending', 'dead') group by delivery_status`,
    );
    const of = (status: string) => rows.find((r) => r.delivery_status === status);
    return {
      pending: of('pending')?.n ?? 0,
      dead: of('dead')?.n ?? 0,
      oldestPendingAt: of('pending')?.oldest ?? null,
    };
  },

  /** Sends again from the first attempt of the schedule; answers the events it reset. */
  async replay(
    db: Queryable,
    f: { id?: string; appId?: string; since?: Date },
    now: Date,
  ): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `update outbox_events set delivery_status = 'pending', attempts = 0, next_attempt_at = $4, lease_until = null, last_error = null
        where delivery_status <> 'pending' and ($1::text is null or id = $1)
          and ($2::text is null or (app_id = $2 and delivery_status = 'dead')) and ($3::timestamptz is null or created_at >= $3)
        returning id`,
      [f.id ?? null, f.appId ?? null, f.since ?? null, now],
    );
    return rows.map((r) => r.id);
  },

  /**
   * Deletes up to `limit` of the oldest delivered or unaddressed events created before `before`, with
   * their attempts, in one statement; pending and dead events are never touched. Answers how many.
   */
  async prune(db: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await db.query<{ n: number }>(
      `with doomed as (
         select id from outbox_events where delivery_status in ('delivered', 'no_destination') and created_at < $1
          order by created_at limit $2 for update skip locked
       ), attempts as (
         delete from webhook_attempts where event_id in (select id from doomed)
       ), gone as (
         delete from outbox_events where id in (select id from doomed) returning 1
       )
       select count(*)::int as n from gone`,
      [before, limit],
    );
    return rows[0]?.n ?? 0;
  },
};
