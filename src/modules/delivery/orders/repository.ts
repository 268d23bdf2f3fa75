import type { Environment } from '../../../platform/auth/scopes.ts';
import type { Queryable } from '../../../platform/db/index.ts';
import type { EventStatement } from '../../webhooks/index.ts';
import { DELIVERY_STATUSES, type DeliveryStatus, type FailureReason } from '../domain/index.ts';
import { TRACKING_CHANNEL } from './courier-tracker.ts';

export type PaymentStatus =
  | 'pending'
  | 'collected'
  | 'wallet_debited'
  | 'refund_pending'
  | 'refunded';

export interface OrderRow {
  id: string;
  app_id: string;
  partner_id: string;
  environment: Environment;
  order_reference: string;
  status: DeliveryStatus;
  version: number;
  customer_name: string;
  customer_phone: string;
  delivery_address: string;
  delivery_city: string;
  item: string;
  payer: 'partner' | 'recipient';
  payment_status: PaymentStatus;
  fee_pesewas: number | null;
  requested_date: string | null;
  pickup_date: string;
  estimated_delivery: Date;
  webhook_url: string | null;
  tracking_token: string;
  cancelled_at: Date | null;
  cancellation_reason: string | null;
  /** Trips to the recipient so far (0 before the first in_transit). */
  delivery_attempts: number;
  /** The latest "could not deliver" outcome, if any. */
  failure_reason: FailureReason | null;
  failure_note: string | null;
  /** Charged once when a wallet-funded order is returned. */
  return_fee_pesewas: number | null;
  /** The quote from orders.estimate that priced the order, if one did. */
  quote_id: string | null;
  /** GhanaPostGPS digital addresses, upper case, when the partner gave them. */
  pickup_digital_address: string | null;
  delivery_digital_address: string | null;
  /** The delivery window the partner asked for, when it did. */
  pickup_ready_at: Date | null;
  dropoff_deadline: Date | null;
  /** The sandbox test clock the order lives on (its time, not real time, moves it). */
  test_clock_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface EventRow {
  version: number;
  status: DeliveryStatus;
  note: string | null;
  at: Date;
}

export interface Owner {
  appId: string;
  environment: Environment;
}

const ORDER_COLS = `id, app_id, partner_id, environment, order_reference, status, version, customer_name, customer_phone,
  delivery_address, delivery_city, item, payer, payment_status, fee_pesewas, to_char(requested_date, 'YYYY-MM-DD') as requested_date,
  to_char(pickup_date, 'YYYY-MM-DD') as pickup_date, estimated_delivery, webhook_url, tracking_token, cancelled_at,
  cancellation_reason, delivery_attempts, failure_reason, failure_note, return_fee_pesewas, quote_id,
  pickup_digital_address, delivery_digital_address, pickup_ready_at, dropoff_deadline, test_clock_id, created_at, updated_at`;

/**
 * What orders.track shows of an order, and the owner it is checked against: a third of the
 * columns. Plain columns only: ORDER_COLS formats the two dates as text, a plain select would not.
 */
const TRACK_FIELDS = [
  'id',
  'app_id',
  'environment',
  'order_reference',
  'status',
  'customer_name',
  'customer_phone',
  'estimated_delivery',
  'delivery_attempts',
  'failure_reason',
  'failure_note',
  'created_at',
] as const satisfies ReadonlyArray<Exclude<keyof OrderRow, 'requested_date' | 'pickup_date'>>;
export type TrackedOrder = Pick<OrderRow, (typeof TRACK_FIELDS)[number]>;

/** Which of an order's columns a read takes: all of them, or what tracking shows. */
export type OrderColumns = 'order' | 'tracking';
export type OrderOf<C extends OrderColumns> = C extends 'tracking' ? TrackedOrder : OrderRow;

/** The moves after placement, as JSON beside the order row, so a read with its timeline is one statement. */
const movesAfter = (
  columns: string,
) => `${columns}, coalesce((select json_agg(json_build_object('version', e.version, 'status', e.status, 'note', e.note, 'at', e.at) order by e.version)
  from delivery_order_events e where e.order_id = delivery_orders.id), '[]') as moves`;
const WITH_MOVES = movesAfter(ORDER_COLS);
const SELECT_WITH_MOVES: Record<OrderColumns, string> = {
  order: WITH_MOVES,
  tracking: movesAfter(TRACK_FIELDS.join(', ')),
};

export interface TrackingRow {
  id: string;
  status: DeliveryStatus;
  estimated_delivery: Date;
  pickup_lat: number | null;
  pickup_lng: number | null;
  delivery_lat: number | null;
  delivery_lng: number | null;
}

export interface OrderWithTimeline<O extends Pick<OrderRow, 'created_at'> = OrderRow> {
  order: O;
  events: EventRow[];
}

type MoveJson = { version: number; status: DeliveryStatus; note: string | null; at: string };

/** The timeline: the order's placement (its own creation, never stored twice), then its moves. */
function timelineOf<O extends Pick<OrderRow, 'created_at'>>(
  order: O,
  moves: MoveJson[] | string,
): OrderWithTimeline<O> {
  const parsed: MoveJson[] = typeof moves === 'string' ? JSON.parse(moves) : moves;
  const placed: EventRow = { version: 1, status: 'placed', note: null, at: order.created_at };
  return { order, events: [placed, ...parsed.map((m) => ({ ...m, at: new Date(m.at) }))] };
}

function withTimeline(
  row: (OrderRow & { moves: MoveJson[] | string }) | undefined,
): OrderWithTimeline | undefined {
  if (!row) return undefined;
  const { moves, ...order } = row;
  return timelineOf(order, moves);
}

/** An order read with another module's column about it (ReadAlongside's value, before `read`). */
export interface OrderWithAlongside<O extends Pick<OrderRow, 'created_at'> = OrderRow>
  extends OrderWithTimeline<O> {
  alongside: unknown;
}

/** Another module's column in the select list: a scalar subquery over `delivery_orders.id`. */
const alongsideColumn = (column: string | undefined): string =>
  column === undefined ? '' : `, ${column} as alongside`;

function withAlongside<O extends Pick<OrderRow, 'created_at'>>(
  row: (O & { moves: MoveJson[]; alongside?: unknown }) | undefined,
): OrderWithAlongside<O> | undefined {
  if (!row) return undefined;
  const { alongside = null, moves, ...order } = row;
  // The row without its two extra columns is the order as selected (O).
  return { ...timelineOf(order as unknown as O, moves), alongside };
}

/** One day of a partner's orders (see dailyForPartner). */
export interface PartnerOrderDay {
  day: string;
  created: number;
  finished: number;
  delivered: number;
  avg_delivery_seconds: number | null;
}

export interface PartnerOrderFilter {
  status?: DeliveryStatus | undefined;
  environment?: Environment | undefined;
  /** Part of the order reference, matched case-insensitively. */
  reference?: string | undefined;
  /** The id of the previous page's last order (its created_at is read at full precision in the query). */
  afterId?: string | undefined;
  /** Created on or after this UTC (Accra) day, YYYY-MM-DD. */
  from?: string | undefined;
  /** Created on or before this UTC (Accra) day, YYYY-MM-DD. */
  to?: string | undefined;
}

export interface TransitionExtra {
  cancellationReason?: string | undefined;
  paymentStatus?: PaymentStatus | undefined;
  /** A "could not deliver" outcome: replaces the order's latest failure. */
  failure?: { reason: FailureReason; note: string | null } | undefined;
  returnFeePesewas?: number | undefined;
}

export interface InsertOrder {
  id: string;
  appId: string;
  partnerId: string;
  environment: Environment;
  values: Record<string, unknown>;
}

const literalLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A reference search as an ILIKE pattern: the term anywhere in the reference, its \, % and _ taken literally. */
const likePattern = (term: string): string => `%${literalLike(term)}%`;

/**
 * The console's reference search across every partner, through the trigram index (migration 068):
 * the term anywhere in the reference when it has a trigram of its own (three letters or digits in a
 * row). A term without one (`A1`, `7-b`) would have every order read to find it anywhere, so it
 * matches the reference's start instead, which the index's word-start trigrams still find.
 */
const boardPattern = (term: string): string =>
  /[\p{L}\p{N}]{3}/u.test(term) ? likePattern(term) : `${literalLike(term)}%`;

/**
 * A reference filter within one partner's orders, written so that it is checked on the partner's list
 * index entries and never through the trigram index: a partner's references tend to share a prefix
 * (`ORD-`), whose trigrams every one of the table's orders holds, and intersecting those lists costs
 * more than filtering the partner's entries (at a million orders, 30 ms against 10 ms).
 */
const partnerReferenceMatch = (param: string) =>
  `(order_reference || '') ilike ${param} escape '\\'`;

function statusLiteral(status: DeliveryStatus): DeliveryStatus {
  if (!DELIVERY_STATUSES.includes(status)) throw new Error(`not a delivery status: ${status}`);
  return status;
}

export const ordersRepository = {
  /**
   * Writes the order and its `created` event in one statement (the event's insert rides along as
   * a data-modifying CTE), so both exist together even in autocommit, without a transaction.
   */
  async insertWithEvent(
    q: Queryable,
    order: InsertOrder,
    event: (firstParam: number) => EventStatement,
    alongside: Array<
      (
        firstParam: number,
      ) =>
        | { sql: string; params: unknown[] }
        | { ctes: ReadonlyArray<{ name: string; sql: string }>; params: unknown[] }
    > = [],
  ): Promise<{ row: OrderRow; eventPending: boolean }> {
    const cols = ['id', 'app_id', 'partner_id', 'environment', ...Object.keys(order.values)];
    const params: unknown[] = [
      order.id,
      order.appId,
      order.partnerId,
      order.environment,
      ...Object.values(order.values),
    ];
    const announce = event(params.length + 1);
    params.push(...announce.params);
    // Other modules' statements about the new order run in the same statement, as CTEs of their own.
    const more = alongside.map((statement, i) => {
      const s = statement(params.length + 1);
      params.push(...s.params);
      const ctes = 'ctes' in s ? s.ctes : [{ name: `alongside_${i}`, sql: s.sql }];
      return ctes.map((c) => `, ${c.name} as (${c.sql})`).join('');
    });
    const rows = await q.query<OrderRow & { event_pending: boolean }>(
      `with placed as (insert into delivery_orders (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning ${ORDER_COLS}),
        announced as (${announce.sql})${more.join('')}
       select placed.*, (select delivery_status = 'pending' from announced) as event_pending from placed`,
      params,
    );
    const { event_pending, ...row } = rows[0]!;
    return { row, eventPending: event_pending };
  },

  async insertEvent(
    tx: Queryable,
    orderId: string,
    version: number,
    status: DeliveryStatus,
    note: string | null,
    at: Date,
  ): Promise<void> {
    await tx.query(
      'insert into delivery_order_events (order_id, version, status, note, at) values ($1, $2, $3, $4, $5)',
      [orderId, version, status, note, at],
    );
    // Tracking pages watching the order are told after the commit.
    tx.notify(TRACKING_CHANNEL);
  },

  /**
   * The order and its timeline if it belongs to this app and environment; others' orders are
   * indistinguishable from missing ones. `alongside`: another module's column about the order
   * (ReadAlongside), read in the same statement and answered as `alongside`.
   */
  async findOwned<C extends OrderColumns = 'order'>(
    db: Queryable,
    id: string,
    owner: Owner,
    alongside?: string,
    columns: C = 'order' as C,
  ): Promise<OrderWithAlongside<OrderOf<C>> | undefined> {
    // By primary key alone, ownership checked here: with the owner in the WHERE clause a planner
    // without statistics may scan the app's orders through the reference index instead.
    const found = withAlongside(
      (
        await db.query<OrderOf<C> & { moves: MoveJson[]; alongside?: unknown }>(
          `select ${SELECT_WITH_MOVES[columns]}${alongsideColumn(alongside)} from delivery_orders where id = $1`,
          [id],
        )
      )[0],
    );
    return found &&
      found.order.app_id === owner.appId &&
      found.order.environment === owner.environment
      ? found
      : undefined;
  },

  async findOwnedByReference<C extends OrderColumns = 'order'>(
    db: Queryable,
    reference: string,
    owner: Owner,
    alongside?: string,
    columns: C = 'order' as C,
  ): Promise<OrderWithAlongside<OrderOf<C>> | undefined> {
    const rows = await db.query<OrderOf<C> & { moves: MoveJson[]; alongside?: unknown }>(
      `select ${SELECT_WITH_MOVES[columns]}${alongsideColumn(alongside)} from delivery_orders
        where app_id = $1 and environment = $2 and order_reference = $3`,
      [owner.appId, owner.environment, reference],
    );
    return withAlongside(rows[0]);
  },

  async findWithTimeline(db: Queryable, id: string): Promise<OrderWithTimeline | undefined> {
    return withTimeline(
      (
        await db.query<OrderRow & { moves: MoveJson[] }>(
          `select ${WITH_MOVES} from delivery_orders where id = $1`,
          [id],
        )
      )[0],
    );
  },

  async findById(db: Queryable, id: string): Promise<OrderRow | undefined> {
    return (
      await db.query<OrderRow>(`select ${ORDER_COLS} from delivery_orders where id = $1`, [id])
    )[0];
  },

  /** The orders of a sandbox test clock that have not ended (delivered, cancelled, returned or failed), oldest first. */
  async openOnClock(db: Queryable, clockId: string): Promise<OrderRow[]> {
    return db.query<OrderRow>(
      `select ${ORDER_COLS} from delivery_orders
        where test_clock_id = $1 and status not in ('delivered', 'cancelled', 'returned', 'failed')
        order by created_at, id`,
      [clockId],
    );
  },

  /** The order, its row locked until the caller's transaction ends (a move inside another module's transaction). */
  async lockById(tx: Queryable, id: string): Promise<OrderRow | undefined> {
    return (
      await tx.query<OrderRow>(
        `select ${ORDER_COLS} from delivery_orders where id = $1 for update`,
        [id],
      )
    )[0];
  },

  /**
   * A partner's orders newest first, a page at a time: keyset on (created_at, id), so a page costs
   * the same however deep it is, and rows added meanwhile never shift a page. The page's ids are
   * chosen from the partner's list index alone (it carries order_reference, so a reference search
   * filters index entries, not one scattered heap page per order), then only those rows are read.
   */
  async listForPartner(
    db: Queryable,
    partnerId: string,
    filter: PartnerOrderFilter,
    limit: number,
  ): Promise<OrderRow[]> {
    return db.query<OrderRow>(
      `select o.* from (
         select id, created_at from delivery_orders
          where partner_id = $1 and ($2::text is null or status = $2) and ($3::text is null or environment = $3)
            and ($4::text is null or ${partnerReferenceMatch('$4')})
            and ($5::text is null or (created_at, id) < (select c.created_at, c.id from delivery_orders c where c.id = $5 and c.partner_id = $1))
            and ($7::date is null or created_at >= ($7::date::timestamp at time zone 'UTC'))
            and ($8::date is null or created_at < (($8::date + 1)::timestamp at time zone 'UTC'))
          order by created_at desc, id desc limit $6
       ) page cross join lateral (select ${ORDER_COLS} from delivery_orders d where d.id = page.id) o
       order by page.created_at desc, page.id desc`,
      [
        partnerId,
        filter.status ?? null,
        filter.environment ?? null,
        filter.reference ? likePattern(filter.reference) : null,
        filter.afterId ?? null,
        limit,
        filter.from ?? null,
        filter.to ?? null,
      ],
    );
  },

  /**
   * A partner's orders per UTC day (Accra time) over the `days` days ending on `today`, both
   * environments: orders created, and of those, how many finished (delivered, returned or failed) and were
   * delivered, and the average created → delivered time in seconds. Days without orders are zeros.
   * Every column it reads is in delivery_orders_partner_list_idx (migration 072): the partner's
   * entries in the span, no heap page or timeline per order once the table is vacuumed.
   */
  async dailyForPartner(
    db: Queryable,
    partnerId: string,
    today: string,
    days: number,
  ): Promise<PartnerOrderDay[]> {
    return db.query<PartnerOrderDay>(
      `with span as (select generate_series($2::date - ($3::int - 1), $2::date, interval '1 day')::date as day),
            o as (select (o.created_at at time zone 'UTC')::date as day, o.status,
                         extract(epoch from (o.delivered_at - o.created_at)) as seconds
                    from delivery_orders o
                   where o.partner_id = $1
                     and o.created_at >= (($2::date - ($3::int - 1))::timestamp at time zone 'UTC')
                     and o.created_at < (($2::date + 1)::timestamp at time zone 'UTC'))
       select to_char(span.day, 'YYYY-MM-DD') as day,
              count(o.status)::int as created,
              (count(*) filter (where o.status in ('delivered', 'returned', 'failed')))::int as finished,
              (count(*) filter (where o.status = 'delivered'))::int as delivered,
              round(avg(o.seconds) filter (where o.status = 'delivered'))::int as avg_delivery_seconds
         from span left join o on o.day = span.day
        group by span.day order by span.day`,
      [partnerId, today, days],
    );
  },

  /**
   * Every partner's orders newest first (operators), keyset on (created_at, id) like listForPartner.
   * The statement names only the filters given: PostgreSQL plans a prepared statement once for all
   * parameters after a few runs, and that generic plan, made for any status, walked the whole board
   * index for a status no order has (0.9 s at a million orders).
   */
  async listAll(
    db: Queryable,
    filter: PartnerOrderFilter & { partnerId?: string | undefined },
    limit: number,
  ): Promise<OrderRow[]> {
    const params: unknown[] = [limit];
    const where: string[] = [];
    const add = (predicate: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(predicate(`$${params.length}`));
    };
    if (filter.partnerId) add((n) => `partner_id = ${n}`, filter.partnerId);
    // A status is written into the statement (one of DELIVERY_STATUSES, never the caller's text): a plan
    // made for any status expects a quarter of the orders to match and walks the board index for them.
    if (filter.status) where.push(`status = '${statusLiteral(filter.status)}'`);
    if (filter.environment) add((n) => `environment = ${n}`, filter.environment);
    if (filter.reference)
      // One partner's orders are bounded by its list index: anywhere, as on the dashboard.
      add(
        (n) =>
          filter.partnerId ? partnerReferenceMatch(n) : `order_reference ilike ${n} escape '\\'`,
        filter.partnerId ? likePattern(filter.reference) : boardPattern(filter.reference),
      );
    if (filter.afterId)
      add(
        (n) =>
          `(created_at, id) < (select c.created_at, c.id from delivery_orders c where c.id = ${n})`,
        filter.afterId,
      );
    return db.query<OrderRow>(
      `select ${ORDER_COLS} from delivery_orders
        ${where.length ? `where ${where.join(' and ')}` : ''}
        order by created_at desc, id desc limit $1`,
      params,
    );
  },

  /** What the tracking pages' event streams show of several orders, in one read. */
  async trackingMany(db: Queryable, ids: readonly string[]): Promise<TrackingRow[]> {
    return db.query<TrackingRow>(
      `select id, status, estimated_delivery, pickup_lat, pickup_lng, delivery_lat, delivery_lng from delivery_orders where id = any($1)`,
      [ids],
    );
  },

  async findByTrackingToken(db: Queryable, token: string): Promise<OrderWithTimeline | undefined> {
    return withTimeline(
      (
        await db.query<OrderRow & { moves: MoveJson[] }>(
          `select ${WITH_MOVES} from delivery_orders where tracking_token = $1`,
          [token],
        )
      )[0],
    );
  },

  /**
   * Moves an order from `from` to `to` only if nobody moved it meanwhile (compare-and-set on the
   * status and the version, so even a repeated in_transit → in_transit attempt cannot apply twice
   * from one read), so concurrent moves cannot both win.
   */
  async transition(
    tx: Queryable,
    current: Pick<OrderRow, 'id' | 'status' | 'version'>,
    to: DeliveryStatus,
    at: Date,
    extra: TransitionExtra = {},
  ): Promise<OrderRow | undefined> {
    const rows = await tx.query<OrderRow>(
      `update delivery_orders set status = $4, version = version + 1, updated_at = $5,
              cancelled_at = case when $4 = 'cancelled' then $5 else cancelled_at end,
              delivered_at = case when $4 = 'delivered' then $5 else delivered_at end,
              cancellation_reason = coalesce($6, cancellation_reason),
              payment_status = coalesce($7, payment_status),
              delivery_attempts = delivery_attempts + case when $4 = 'in_transit' then 1 else 0 end,
              failure_reason = coalesce($8, failure_reason),
              failure_note = case when $8::text is null then failure_note else $9 end,
              return_fee_pesewas = coalesce($10, return_fee_pesewas)
        where id = $1 and status = $2 and version = $3 returning ${ORDER_COLS}`,
      [
        current.id,
        current.status,
        current.version,
        to,
        at,
        extra.cancellationReason ?? null,
        extra.paymentStatus ?? null,
        extra.failure?.reason ?? null,
        extra.failure?.note ?? null,
        extra.returnFeePesewas ?? null,
      ],
    );
    return rows[0];
  },

  async pendingRefunds(db: Queryable, limit: number): Promise<OrderRow[]> {
    return db.query<OrderRow>(
      `select ${ORDER_COLS} from delivery_orders where payment_status = 'refund_pending' order by updated_at limit $1`,
      [limit],
    );
  },

  async markRefunded(tx: Queryable, id: string, at: Date): Promise<boolean> {
    const rows = await tx.query(
      `update delivery_orders set payment_status = 'refunded', updated_at = $2 where id = $1 and payment_status = 'refund_pending' returning id`,
      [id, at],
    );
    return rows.length > 0;
  },
};
