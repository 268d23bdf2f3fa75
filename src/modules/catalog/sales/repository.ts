import type { Environment } from '../../../platform/auth/scopes.ts';
import type { Queryable } from '../../../platform/db/index.ts';
import type { DeliveryStatus } from '../../delivery/index.ts';

export type SaleState =
  | 'awaiting_payment'
  | 'awaiting_delivery'
  | 'confirmed'
  | 'failed'
  | 'on_hold';
export type SalePaymentStatus =
  | 'pending'
  | 'paid'
  | 'collected'
  | 'declined'
  | 'expired'
  | 'not_collected'
  | 'refund_due'
  | 'not_started'
  | 'amount_mismatch'
  | 'refunded';
export type QuoteSource = 'coordinates' | 'area' | 'address' | 'default';

export interface SaleRow {
  id: string;
  app_id: string;
  partner_id: string;
  environment: Environment;
  reference: string;
  client_reference: string;
  external_reference: string | null;
  released_reference: string | null;
  vendor_id: string;
  payment_method: 'online' | 'cod';
  state: SaleState;
  payment_status: SalePaymentStatus;
  failure_reason: string | null;
  version: number;
  buyer_name: string;
  buyer_phone: string;
  delivery_address: string;
  delivery_area_id: string | null;
  delivery_lat: number | null;
  delivery_lng: number | null;
  quote_lat: number;
  quote_lng: number;
  quote_source: QuoteSource;
  subtotal_pesewas: number;
  commission_pesewas: number;
  delivery_fee_pesewas: number;
  markup_pesewas: number;
  total_pesewas: number;
  gateway: string | null;
  checkout_id: string | null;
  checkout_url: string | null;
  expires_at: Date | null;
  /** The order_reference of the sale's delivery order: random, so nobody can take it first. */
  delivery_reference: string;
  delivery_order_id: string | null;
  /** What the gateway reported as paid, once it reported a payment. */
  gateway_amount_pesewas: number | null;
  /** What the buyer is owed back, once something is. */
  refund_due_pesewas: number | null;
  /** When its payment was booked (online, `settled: true` for the partner) or its cash collected (cod). */
  settled_at: Date | null;
  /** When its shares (vendor, commission, delivery fee, markup) were recognised: at delivery. */
  earned_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A sale with its delivery order's status, read in one query (null until the order exists). */
export interface SaleWithDelivery extends SaleRow {
  delivery_status: DeliveryStatus | null;
  tracking_token: string | null;
}

export interface SaleItemRow {
  line: number;
  product_id: string;
  variant_id: string;
  title: string;
  label: string;
  quantity: number;
  unit_price_pesewas: number;
}

export type NewSale = Omit<
  SaleRow,
  | 'version'
  | 'released_reference'
  | 'failure_reason'
  | 'checkout_id'
  | 'checkout_url'
  | 'delivery_order_id'
  | 'gateway_amount_pesewas'
  | 'refund_due_pesewas'
  | 'settled_at'
  | 'earned_at'
  | 'failed_at'
  | 'updated_at'
>;

/** What operators filter every partner's sales by (days are YYYY-MM-DD, UTC). */
export interface OperatorSaleFilter {
  state?: SaleState | undefined;
  paymentStatus?: SalePaymentStatus | undefined;
  partnerId?: string | undefined;
  from?: string | undefined;
  until?: string | undefined;
  beforeId?: string | undefined;
}

export interface Owner {
  appId: string;
  environment: Environment;
}

const COLS = `s.id, s.app_id, s.partner_id, s.environment, s.reference, s.client_reference, s.external_reference, s.released_reference,
  s.vendor_id, s.payment_method, s.state, s.payment_status, s.failure_reason, s.version, s.buyer_name, s.buyer_phone, s.delivery_address,
  s.delivery_area_id, s.delivery_lat, s.delivery_lng, s.quote_lat, s.quote_lng, s.quote_source, s.subtotal_pesewas, s.commission_pesewas,
  s.delivery_fee_pesewas, s.markup_pesewas, s.total_pesewas, s.gateway, s.checkout_id, s.checkout_url, s.expires_at, s.delivery_reference,
  s.delivery_order_id, s.gateway_amount_pesewas, s.refund_due_pesewas, s.settled_at, s.earned_at, s.failed_at, s.created_at, s.updated_at`;
// The delivery's status is read straight from its table (read-only): it works the same on an
// instance that does not serve the delivery service but shares its database.
const WITH_DELIVERY = `select ${COLS}, d.status as delivery_status, d.tracking_token from sales s left join delivery_orders d on d.id = s.delivery_order_id`;

export const salesRepository = {
  async insert(tx: Queryable, sale: NewSale): Promise<SaleRow> {
    const cols = Object.keys(sale);
    const rows = await tx.query<SaleRow>(
      `insert into sales as s (${cols.join(', ')}, updated_at) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}, $${cols.indexOf('created_at') + 1}) returning ${COLS}`,
      Object.values(sale),
    );
    return rows[0]!;
  },

  async insertItems(
    tx: Queryable,
    saleId: string,
    items: readonly Omit<SaleItemRow, 'line'>[],
  ): Promise<void> {
    const values = items.map(
      (_, i) =>
        `($1, ${i + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6}, $${i * 6 + 7})`,
    );
    await tx.query(
      `insert into sale_items (sale_id, line, product_id, variant_id, title, label, quantity, unit_price_pesewas) values ${values.join(', ')}`,
      [
        saleId,
        ...items.flatMap((it) => [
          it.product_id,
          it.variant_id,
          it.title,
          it.label,
          it.quantity,
          it.unit_price_pesewas,
        ]),
      ],
    );
  },

  async items(db: Queryable, saleId: string): Promise<SaleItemRow[]> {
    return db.query<SaleItemRow>(
      'select line, product_id, variant_id, title, label, quantity, unit_price_pesewas from sale_items where sale_id = $1 order by line',
      [saleId],
    );
  },

  /** Owned sales only: another app's or environment's answers undefined, like a missing one. */
  async findOwned(
    db: Queryable,
    key: { saleId: string } | { externalReference: string },
    owner: Owner,
  ): Promise<SaleWithDelivery | undefined> {
    const [column, value] =
      'saleId' in key ? ['s.id', key.saleId] : ['s.external_reference', key.externalReference];
    const rows = await db.query<SaleWithDelivery>(
      `${WITH_DELIVERY} where ${column} = $1 and s.app_id = $2 and s.environment = $3`,
      [value, owner.appId, owner.environment],
    );
    return rows[0];
  },

  /** The client reference of each of these sales, by sale id. */
  async references(
    db: Queryable,
    ids: readonly string[],
  ): Promise<Array<{ id: string; client_reference: string }>> {
    return db.query('select id, client_reference from sales where id = any($1::text[])', [ids]);
  },

  /** The delivery order of each of these sales that has one. */
  async deliveryOrdersOf(
    q: Queryable,
    saleIds: readonly string[],
  ): Promise<Array<{ id: string; delivery_order_id: string }>> {
    return q.query(
      'select id, delivery_order_id from sales where id = any($1::text[]) and delivery_order_id is not null',
      [saleIds],
    );
  },

  async codVendorsOf(
    db: Queryable,
    orderIds: readonly string[],
  ): Promise<Array<{ vendor_id: string }>> {
    return db.query(
      `select distinct vendor_id from sales where delivery_order_id = any($1::text[]) and payment_method = 'cod'`,
      [orderIds],
    );
  },

  async findById(db: Queryable, id: string): Promise<SaleWithDelivery | undefined> {
    return (await db.query<SaleWithDelivery>(`${WITH_DELIVERY} where s.id = $1`, [id]))[0];
  },

  async findByClientReference(
    db: Queryable,
    clientReference: string,
  ): Promise<SaleWithDelivery | undefined> {
    return (
      await db.query<SaleWithDelivery>(`${WITH_DELIVERY} where s.client_reference = $1`, [
        clientReference,
      ])
    )[0];
  },

  /** Locks the sale row for the rest of the transaction: state checks after it are compare-and-set. */
  async lock(tx: Queryable, id: string): Promise<SaleRow | undefined> {
    return (
      await tx.query<SaleRow>(`select ${COLS} from sales s where s.id = $1 for update`, [id])
    )[0];
  },

  async lockByDeliveryOrder(tx: Queryable, orderId: string): Promise<SaleRow | undefined> {
    return (
      await tx.query<SaleRow>(
        `select ${COLS} from sales s where s.delivery_order_id = $1 for update`,
        [orderId],
      )
    )[0];
  },

  async transition(
    tx: Queryable,
    id: string,
    to: {
      state: SaleState;
      paymentStatus: SalePaymentStatus;
      failureReason?: string;
      releaseReference?: boolean;
      gatewayAmountPesewas?: number;
      refundDuePesewas?: number;
    },
    at: Date,
  ): Promise<SaleRow> {
    const rows = await tx.query<SaleRow>(
      `update sales as s set state = $2, payment_status = $3, failure_reason = coalesce($4, failure_reason), version = version + 1, updated_at = $5,
              settled_at = case when $2 = 'confirmed' then $5 else settled_at end,
              failed_at = case when $2 = 'failed' and failed_at is null then $5 else failed_at end,
              released_reference = case when $6 then external_reference else released_reference end,
              external_reference = case when $6 then null else external_reference end,
              gateway_amount_pesewas = coalesce($7, gateway_amount_pesewas),
              refund_due_pesewas = coalesce($8, refund_due_pesewas)
        where id = $1 returning ${COLS}`,
      [
        id,
        to.state,
        to.paymentStatus,
        to.failureReason ?? null,
        at,
        to.releaseReference ?? false,
        to.gatewayAmountPesewas ?? null,
        to.refundDuePesewas ?? null,
      ],
    );
    return rows[0]!;
  },

  /** Its shares were recognised now (delivered): the partner's view of the sale does not change. */
  async earn(tx: Queryable, id: string, at: Date): Promise<SaleRow> {
    return (
      await tx.query<SaleRow>(
        `update sales as s set earned_at = $2 where id = $1 and earned_at is null returning ${COLS}`,
        [id, at],
      )
    )[0]!;
  },

  async setCheckout(
    db: Queryable,
    id: string,
    checkout: { checkoutId: string; checkoutUrl: string },
    expiresAt: Date,
    at: Date,
  ): Promise<void> {
    await db.query(
      'update sales set checkout_id = $2, checkout_url = $3, expires_at = $4, updated_at = $5 where id = $1',
      [id, checkout.checkoutId, checkout.checkoutUrl, expiresAt, at],
    );
  },

  /** Links the delivery order created in the same transaction, under the sale's row lock. */
  async linkDelivery(tx: Queryable, id: string, orderId: string, at: Date): Promise<void> {
    await tx.query(
      'update sales set delivery_order_id = $2, updated_at = $3 where id = $1 and delivery_order_id is null',
      [id, orderId, at],
    );
  },

  /** A partner's sales, newest first; `afterId` is the last sale of the previous page (another partner's id matches nothing). */
  async listForPartner(
    db: Queryable,
    partnerId: string,
    afterId: string | undefined,
    limit: number,
  ): Promise<SaleWithDelivery[]> {
    return db.query<SaleWithDelivery>(
      `${WITH_DELIVERY} where s.partner_id = $1
          and ($2::text is null or (s.created_at, s.id) < (select a.created_at, a.id from sales a where a.id = $2 and a.partner_id = $1))
        order by s.created_at desc, s.id desc limit $3`,
      [partnerId, afterId ?? null, limit],
    );
  },

  /**
   * Every partner's sales for operators, newest first (keyset on created_at, id: `beforeId` is the
   * last sale of the previous page); `from`/`until` are UTC days, both included.
   */
  async listNewest(
    db: Queryable,
    f: OperatorSaleFilter,
    limit: number,
  ): Promise<SaleWithDelivery[]> {
    return db.query<SaleWithDelivery>(
      `${WITH_DELIVERY} where ($1::text is null or s.state = $1) and ($2::text is null or s.payment_status = $2) and ($3::text is null or s.partner_id = $3)
          and ($4::date is null or s.created_at >= ($4::date::timestamp at time zone 'UTC'))
          and ($5::date is null or s.created_at < (($5::date + 1)::timestamp at time zone 'UTC'))
          and ($6::text is null or (s.created_at, s.id) < (select b.created_at, b.id from sales b where b.id = $6))
        order by s.created_at desc, s.id desc limit $7`,
      [
        f.state ?? null,
        f.paymentStatus ?? null,
        f.partnerId ?? null,
        f.from ?? null,
        f.until ?? null,
        f.beforeId ?? null,
        limit,
      ],
    );
  },

  /** The operator's list, oldest first, paged by id. */
  async list(
    db: Queryable,
    filter: { state?: SaleState; paymentStatus?: SalePaymentStatus },
    limit: number,
    after: string | undefined,
  ): Promise<SaleRow[]> {
    return db.query<SaleRow>(
      `select ${COLS} from sales s where ($1::text is null or s.state = $1) and ($2::text is null or s.payment_status = $2)
          and ($3::text is null or s.id > $3) order by s.id limit $4`,
      [filter.state ?? null, filter.paymentStatus ?? null, after ?? null, limit],
    );
  },

  async dueExpiries(db: Queryable, now: Date, limit: number): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `select id from sales where state = 'awaiting_payment' and expires_at < $1 order by expires_at limit $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  },

  async undispatched(db: Queryable, createdBefore: Date, limit: number): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `select id from sales where delivery_order_id is null and (state = 'awaiting_delivery' or (state = 'confirmed' and payment_method = 'online'))
          and created_at < $1 order by created_at limit $2`,
      [createdBefore, limit],
    );
    return rows.map((r) => r.id);
  },

  /**
   * Sales still waiting for their delivery's outcome (an open cod sale, a paid prepaid one not yet
   * earned) whose delivery ended (on any instance) without the sale following yet.
   */
  async endedDeliveries(
    db: Queryable,
    limit: number,
  ): Promise<Array<{ id: string; delivery_status: DeliveryStatus }>> {
    return db.query(
      `select s.id, d.status as delivery_status from sales s join delivery_orders d on d.id = s.delivery_order_id
        where (s.state = 'awaiting_delivery' or (s.state = 'confirmed' and s.payment_method = 'online' and s.earned_at is null))
          and d.status in ('delivered', 'returned', 'cancelled', 'failed') order by s.updated_at limit $1`,
      [limit],
    );
  },
};
