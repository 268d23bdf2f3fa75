import type { Environment } from '../../../platform/auth/scopes.ts';
import type { Queryable } from '../../../platform/db/index.ts';
import type { DeliveryStatus } from '../domain/index.ts';

export type PaymentStatus = 'pending' | 'collected' | 'wallet_debited' | 'refund_pending' | 'refunded';

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
  cancellation_reason, created_at, updated_at`;

export interface InsertOrder {
  id: string;
  appId: string;
  partnerId: string;
  environment: Environment;
  values: Record<string, unknown>;
}

export const ordersRepository = {
  async insert(tx: Queryable, order: InsertOrder): Promise<OrderRow> {
    const cols = ['id', 'app_id', 'partner_id', 'environment', ...Object.keys(order.values)];
    const params = [order.id, order.appId, order.partnerId, order.environment, ...Object.values(order.values)];
    const rows = await tx.query<OrderRow>(
      `insert into delivery_orders (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning ${ORDER_COLS}`,
      params,
    );
    return rows[0]!;
  },

  async insertEvent(tx: Queryable, orderId: string, version: number, status: DeliveryStatus, note: string | null, at: Date): Promise<void> {
    await tx.query('insert into delivery_order_events (order_id, version, status, note, at) values ($1, $2, $3, $4, $5)', [orderId, version, status, note, at]);
  },

  /** The order if it belongs to this app and environment; others' orders are indistinguishable from missing ones. */
  async findOwned(db: Queryable, id: string, owner: Owner): Promise<OrderRow | undefined> {
    // By primary key alone, ownership checked here: with the owner in the WHERE clause a planner
    // without statistics may scan the app's orders through the reference index instead.
    const row = (await db.query<OrderRow>(`select ${ORDER_COLS} from delivery_orders where id = $1`, [id]))[0];
    return row && row.app_id === owner.appId && row.environment === owner.environment ? row : undefined;
  },

  async findOwnedByReference(db: Queryable, reference: string, owner: Owner): Promise<OrderRow | undefined> {
    const rows = await db.query<OrderRow>(
      `select ${ORDER_COLS} from delivery_orders where app_id = $1 and environment = $2 and order_reference = $3`,
      [owner.appId, owner.environment, reference],
    );
    return rows[0];
  },

  async findById(db: Queryable, id: string): Promise<OrderRow | undefined> {
    return (await db.query<OrderRow>(`select ${ORDER_COLS} from delivery_orders where id = $1`, [id]))[0];
  },

  async findByTrackingToken(db: Queryable, token: string): Promise<OrderRow | undefined> {
    return (await db.query<OrderRow>(`select ${ORDER_COLS} from delivery_orders where tracking_token = $1`, [token]))[0];
  },

  async events(db: Queryable, orderId: string): Promise<EventRow[]> {
    return db.query<EventRow>('select version, status, note, at from delivery_order_events where order_id = $1 order by version', [orderId]);
  },

  /**
   * Moves an order from `from` to `to` only if nobody moved it meanwhile (compare-and-set on the
   * status), so concurrent moves cannot both win.
   */
  async transition(
    tx: Queryable,
    id: string,
    from: DeliveryStatus,
    to: DeliveryStatus,
    at: Date,
    extra: { cancellationReason?: string; paymentStatus?: PaymentStatus } = {},
  ): Promise<OrderRow | undefined> {
    const rows = await tx.query<OrderRow>(
      `update delivery_orders set status = $3, version = version + 1, updated_at = $4,
              cancelled_at = case when $3 = 'cancelled' then $4 else cancelled_at end,
              cancellation_reason = coalesce($5, cancellation_reason),
              payment_status = coalesce($6, payment_status)
        where id = $1 and status = $2 returning ${ORDER_COLS}`,
      [id, from, to, at, extra.cancellationReason ?? null, extra.paymentStatus ?? null],
    );
    return rows[0];
  },

  async pendingRefunds(db: Queryable, limit: number): Promise<OrderRow[]> {
    return db.query<OrderRow>(`select ${ORDER_COLS} from delivery_orders where payment_status = 'refund_pending' order by updated_at limit $1`, [limit]);
  },

  async markRefunded(tx: Queryable, id: string, at: Date): Promise<boolean> {
    const rows = await tx.query(`update delivery_orders set payment_status = 'refunded', updated_at = $2 where id = $1 and payment_status = 'refund_pending' returning id`, [id, at]);
    return rows.length > 0;
  },

  /** Staging orders whose last move is older than `before`, oldest first (the sandbox courier's work). */
  async dueSandboxOrders(db: Queryable, before: Date, limit: number): Promise<OrderRow[]> {
    return db.query<OrderRow>(
      `select ${ORDER_COLS} from delivery_orders
        where environment = 'staging' and status in ('placed', 'accepted', 'pickedUp', 'in_transit') and updated_at <= $1
        order by updated_at limit $2`,
      [before, limit],
    );
  },
};
