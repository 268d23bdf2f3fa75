import type { AuthContext } from '../../../platform/auth/context.ts';
import type { Environment } from '../../../platform/auth/scopes.ts';
import type { Db, Queryable } from '../../../platform/db/index.ts';
import { errors } from '../../../platform/errors.ts';
import { newId, randomToken } from '../../../platform/ids.ts';
import { appendEvent, eventStatement, eventsWritten, type OutboxEvent } from '../../webhooks/index.ts';
import { allowedMoves, canCancel, canTransition, type DeliveryStatus } from '../domain/index.ts';
import { normalizeOrder, type NormalizeContext, type NormalizedOrder } from './normalize.ts';
import { ordersRepository as repo, type OrderRow, type OrderWithTimeline, type Owner, type PaymentStatus } from './repository.ts';
import type { CreateOrderInput } from './schema.ts';

/** The wallet side of partner-paid orders; the debit joins the order's own transaction. */
export interface OrderWallet {
  debitOrderFee(tx: Queryable, order: WalletOrder): Promise<void>;
  /** Posts the refund and answers the wallet balance after it. */
  refundOrderFee(tx: Queryable, order: WalletOrder): Promise<number>;
}

export interface WalletOrder {
  partnerId: string;
  orderId: string;
  feePesewas: number;
  at: Date;
}

/** Told of every status change inside its transaction (the catalog fails a sale whose delivery is cancelled). */
export type MoveListener = (tx: Queryable, order: OrderRow, from: DeliveryStatus) => Promise<void>;

export interface OrdersServiceDeps {
  db: Db;
  clock: () => number;
  wallet: OrderWallet;
  normalize: Omit<NormalizeContext, 'environment' | 'now'>;
}

/**
 * Whom an order belongs to: an app of a partner, in one environment. A partner's call passes its
 * key's context; another module (the catalog, for a sale's delivery) passes the owner it acts for.
 */
export interface OrderOwner {
  partnerId: string;
  appId: string;
  environment: Environment;
}

/** An order checked and priced outside any transaction, ready to be placed inside one. */
export interface PreparedOrder {
  owner: OrderOwner;
  order: NormalizedOrder;
  now: Date;
}

type OrderEventType = 'delivery.order.created' | 'delivery.order.status_changed' | 'delivery.order.cancelled';

const owner = (auth: AuthContext): Owner => ({ appId: auth.appId, environment: auth.environment });
const notFound = () => errors.orderNotFound('No order with this order_id exists for this app.');

/** Delivery orders: creation, reads, cancellation and status moves, each with its events in one transaction. */
/** 409 INVALID_TRANSITION naming the moves that are allowed (in the message and in details). */
function invalidTransition(from: DeliveryStatus, to: DeliveryStatus) {
  const next = allowedMoves(from);
  const allowed = next.length === 0 ? `${from} is final: no move is allowed` : `from ${from} it can move to ${next.join(', ')}`;
  return errors.invalidTransition(`An order cannot move from ${from} to ${to}: ${allowed}.`, [
    { field: 'status', issue: next.length === 0 ? allowed : `must be one of ${next.join(', ')} (the moves allowed from ${from})` },
  ]);
}

export class OrdersService {
  private readonly listeners: MoveListener[] = [];

  constructor(private readonly deps: OrdersServiceDeps) {}

  onMove(listener: MoveListener): void {
    this.listeners.push(listener);
  }

  async create(owner: OrderOwner, input: CreateOrderInput): Promise<OrderRow> {
    const prepared = await this.prepare(owner, input);
    // A recipient-paid order is one statement (order and event), atomic without a transaction;
    // a wallet debit needs the transaction that ties it to the order.
    if (prepared.order.payer !== 'partner') return this.place(this.deps.db, prepared);
    return this.deps.db.transaction((tx) => this.place(tx, prepared));
  }

  /** Validates and prices an order (INVALID_ORDER_PAYLOAD); touches nothing. */
  async prepare(owner: OrderOwner, input: CreateOrderInput): Promise<PreparedOrder> {
    const now = new Date(this.deps.clock());
    const order = await normalizeOrder(input, { ...this.deps.normalize, environment: owner.environment, now });
    return { owner, order, now };
  }

  /**
   * Writes a prepared order with its event (one statement) and its wallet debit inside the caller's
   * transaction, so a caller can tie the order to its own state change atomically. The order's
   * first timeline entry is its own creation (see the repository).
   */
  async place(tx: Queryable, { owner, order, now }: PreparedOrder): Promise<OrderRow> {
    const { input } = order;
    const paymentStatus: PaymentStatus = order.payer === 'partner' ? 'wallet_debited' : 'pending';
    const id = newId('dlv');
    const webhookUrl = input.webhook_url ?? null;
    const created = (firstParam: number) =>
      eventStatement(this.event('delivery.order.created', { id, app_id: owner.appId, environment: owner.environment, version: 1, webhook_url: webhookUrl, order_reference: input.order_reference, status: 'placed', cancellation_reason: null }, null, now), firstParam);
    const row = await repo.insertWithEvent(tx, {
      id,
      appId: owner.appId,
      partnerId: owner.partnerId,
      environment: owner.environment,
      values: {
        order_reference: input.order_reference,
        customer_name: input.customer.name,
        customer_phone: order.customerPhone,
        customer_whatsapp: order.customerWhatsapp,
        delivery_address: input.delivery.address,
        delivery_city: input.delivery.city,
        delivery_region: input.delivery.region,
        delivery_lat: input.delivery.coordinates?.lat ?? null,
        delivery_lng: input.delivery.coordinates?.lng ?? null,
        delivery_location_id: input.delivery.location_id ?? null,
        delivery_notes: input.delivery.notes ?? null,
        item: input.item,
        pickup_contact_person: input.pickup.contact_person,
        pickup_contact_phone: order.pickupPhone,
        pickup_address: input.pickup.address ?? null,
        pickup_lat: input.pickup.coordinates?.lat ?? null,
        pickup_lng: input.pickup.coordinates?.lng ?? null,
        pickup_location_id: input.pickup.location_id ?? null,
        pickup_region: order.pickupRegion,
        dropoff_region: order.dropoffRegion,
        service_area: order.serviceArea,
        payer: order.payer,
        payment_method: input.payment?.method ?? null,
        payment_is_paid: input.payment?.is_paid ?? null,
        payment_status: paymentStatus,
        fee_pesewas: order.feePesewas,
        requested_date: input.delivery_date ?? null,
        pickup_date: order.pickupDate,
        estimated_delivery: order.estimatedDelivery,
        special_instructions: input.special_instructions ?? null,
        webhook_url: webhookUrl,
        tracking_token: randomToken(18),
        created_at: now,
        updated_at: now,
      },
    }, created);
    eventsWritten(tx);
    if (order.payer === 'partner') {
      await this.deps.wallet.debitOrderFee(tx, { partnerId: owner.partnerId, orderId: row.id, feePesewas: order.feePesewas!, at: now });
    }
    return row;
  }

  /** The order with its timeline, in one read. */
  async get(auth: AuthContext, orderId: string): Promise<OrderWithTimeline> {
    const found = await repo.findOwned(this.deps.db, orderId, owner(auth));
    if (!found) throw notFound();
    return found;
  }

  async getByReference(auth: AuthContext, reference: string): Promise<OrderWithTimeline> {
    const found = await repo.findOwnedByReference(this.deps.db, reference, owner(auth));
    if (!found) throw errors.orderNotFound('No order with this order_reference exists for this app.');
    return found;
  }

  async history(orderId: string) {
    return (await repo.findWithTimeline(this.deps.db, orderId))?.events ?? [];
  }

  async cancel(auth: AuthContext, orderId: string, reason: string | undefined): Promise<OrderRow> {
    const found = await repo.findOwned(this.deps.db, orderId, owner(auth));
    if (!found) throw notFound();
    return this.move(found.order, 'cancelled', reason ?? 'Cancelled by the partner');
  }

  /** An operator's move; 409 INVALID_TRANSITION when the status machine forbids it. */
  async operatorMove(orderId: string, to: DeliveryStatus, note: string | undefined): Promise<OrderRow> {
    const order = await repo.findById(this.deps.db, orderId);
    if (!order) throw errors.orderNotFound(`There is no order ${orderId}.`);
    return this.move(order, to, note ?? (to === 'cancelled' ? 'Cancelled by operations' : undefined), 'operator');
  }

  /**
   * Applies one status change with its timeline entry and webhook event. The compare-and-set on
   * the status makes a concurrent move lose cleanly instead of both applying. A refused cancel is
   * the partner's 400 INVALID_ORDER_STATUS, or for operators the 409 INVALID_TRANSITION of any move.
   */
  async move(order: OrderRow, to: DeliveryStatus, note?: string, by: 'partner' | 'operator' = 'partner'): Promise<OrderRow> {
    const now = new Date(this.deps.clock());
    for (let current = order; ; ) {
      if (to === 'cancelled' && !canCancel(current.status)) {
        if (by === 'operator') throw invalidTransition(current.status, to);
        throw errors.invalidOrderStatus(`The order is already ${current.status} and cannot be cancelled.`);
      }
      if (to !== 'cancelled' && !canTransition(current.status, to)) {
        throw invalidTransition(current.status, to);
      }
      const moved = await this.deps.db.transaction(async (tx) => {
        const row = await repo.transition(tx, current.id, current.status, to, now, {
          cancellationReason: to === 'cancelled' ? note : undefined,
          paymentStatus: to === 'cancelled' && current.payer === 'partner' ? 'refund_pending' : undefined,
        });
        if (!row) return undefined;
        await repo.insertEvent(tx, row.id, row.version, to, note ?? null, now);
        await this.emit(tx, row, to === 'cancelled' ? 'delivery.order.cancelled' : 'delivery.order.status_changed', current.status, now);
        for (const listener of this.listeners) await listener(tx, row, current.status);
        return row;
      });
      if (moved) return moved;
      const fresh = await repo.findById(this.deps.db, current.id);
      if (!fresh) throw notFound();
      current = fresh;
    }
  }

  private async emit(tx: Queryable, row: OrderRow, type: OrderEventType, previous: DeliveryStatus | null, at: Date) {
    await appendEvent(tx, this.event(type, row, previous, at));
  }

  private event(type: OrderEventType, row: Pick<OrderRow, 'id' | 'app_id' | 'environment' | 'version' | 'webhook_url' | 'order_reference' | 'status' | 'cancellation_reason'>, previous: DeliveryStatus | null, at: Date): OutboxEvent {
    return {
      appId: row.app_id,
      environment: row.environment,
      type,
      subjectId: row.id,
      sequence: row.version,
      destinationUrl: row.webhook_url,
      at,
      data: {
        order_id: row.id,
        order_reference: row.order_reference,
        status: row.status,
        previous_status: previous,
        timestamp: at.toISOString(),
        sequence: row.version,
        ...(type === 'delivery.order.cancelled' ? { cancellation_reason: row.cancellation_reason } : {}),
      },
    };
  }
}
