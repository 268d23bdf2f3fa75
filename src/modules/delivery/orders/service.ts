import { jobSheetRepository, type JobSheet } from './job-sheet.ts';
import type { AuthContext } from '../../../platform/auth/context.ts';
import type { Environment } from '../../../platform/auth/scopes.ts';
import type { Db, Queryable } from '../../../platform/db/index.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { atClockTime } from '../../../platform/clock-scope.ts';
import { newId, randomToken } from '../../../platform/ids.ts';
import {
  appendEvent,
  eventStatement,
  eventsWritten,
  type OutboxEvent,
} from '../../webhooks/index.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import {
  allowedMoves,
  attemptsLeft,
  canCancel,
  canTransition,
  returnFee,
  roadKm,
  type DeliveryStatus,
  type FailureReason,
} from '../domain/index.ts';
import {
  checkFailure,
  invalidTransition,
  type MoveActor,
  type MoveOptions,
} from './move-checks.ts';
import { normalizeOrder, type NormalizeContext, type NormalizedOrder } from './normalize.ts';
import {
  ordersRepository as repo,
  type OrderRow,
  type OrderColumns,
  type OrderOf,
  type OrderWithTimeline,
  type Owner,
  type PaymentStatus,
} from './repository.ts';
import type { ReadAlongside } from './alongside.ts';
import type { CreateOrderInput } from './schema.ts';
import type { LatLng } from '../../../shared/ghana/index.ts';
import type { QuoteBook } from '../quotes/service.ts';

/** Statements another module joins to the order's own insert, one named CTE each. */
export interface JoinedStatements {
  ctes: ReadonlyArray<{ name: string; sql: string }>;
  params: unknown[];
  /** Run once the order's statement has committed. */
  posted: () => void;
}

/** The wallet side of partner-paid orders. */
export interface OrderWallet {
  /**
   * The fee's debit, joined to the order's insert (parameters from `firstParam`): one statement
   * writes the order and its fee or neither, refused past the credit limit (INSUFFICIENT_WALLET_BALANCE).
   */
  orderFeeDebit(order: WalletOrder, firstParam: number): JoinedStatements;
  /** Creates the partner's wallet if it has none (a debit of a wallet not yet created is refused). */
  openWallet(partnerId: string): Promise<void>;
  /** Posts the refund and answers the wallet balance after it. */
  refundOrderFee(tx: Queryable, order: WalletOrder): Promise<number>;
  /** Charges the return fee (`feePesewas`) of a returned order; once per order (the ledger's unique journal). */
  chargeReturnFee(tx: Queryable, order: WalletOrder): Promise<void>;
}

export interface WalletOrder {
  partnerId: string;
  orderId: string;
  feePesewas: number;
  at: Date;
}

/** Told of every status change inside its transaction (the catalog fails a sale whose delivery is cancelled). */
export type MoveListener = (tx: Queryable, order: OrderRow, from: DeliveryStatus) => Promise<void>;

/** What a placement statement learns of a new order: which it is, and where the courier collects. */
export interface PlacedOrder {
  orderId: string;
  environment: Environment;
  at: Date;
  pickup: LatLng | null;
  /** Where the courier delivers, when the partner gave coordinates. */
  dropoff: LatLng | null;
  /** The pickup point's region name (e.g. 'Greater Accra'), when its coordinates were given. */
  pickupRegion: string | null;
  /** The window asked for: no courier is needed before the parcel is ready, and it must arrive by the deadline. */
  pickupReadyAt: Date | null;
  dropoffDeadline: Date | null;
  /** The sandbox test clock the order lives on: its steps run only when that clock advances. */
  testClockId?: string | null;
}

/** The time of a sandbox test clock (the testClocks face): 404 for another app's, 400 for production. */
export interface OrderClocks {
  timeOf(owner: { appId: string; environment: Environment }, clockId: string): Promise<number>;
}

/**
 * A statement written with every new order, joined to the order's own insert (dispatch queues its
 * job so): the order stays one statement, with no transaction, whoever else needs to know of it.
 * Its parameters start at `firstParam`.
 */
/** A statement joined to a new order's insert; `notify` names a channel woken after the commit (the work it queued). */
export type PlaceStatement = (
  placed: PlacedOrder,
  firstParam: number,
) => { sql: string; params: unknown[]; notify?: string };

/** Who moves an order: the partner (cancel), an operator, or a courier through dispatch. */

export interface OrdersServiceDeps {
  db: Db;
  clock: () => number;
  wallet: OrderWallet;
  /** Price locks from orders.estimate, redeemed by an order that names one. */
  quotes: QuoteBook;
  /** Test clocks an order may be created on. */
  clocks: OrderClocks;
  normalize: Omit<NormalizeContext, 'environment' | 'now'>;
  /** Delivery attempts before an order must be returned (the first trip counts). */
  maxAttempts: number;
  /** A returned wallet-funded order's return fee, as a percentage of its delivery fee. */
  returnFeePercent: number;
}

export type { MoveActor, MoveOptions };

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

type OrderEventType =
  | 'delivery.order.created'
  | 'delivery.order.status_changed'
  | 'delivery.order.cancelled'
  | 'delivery.order.returning'
  | 'delivery.order.returned';

const EVENT_OF: Partial<Record<DeliveryStatus, OrderEventType>> = {
  cancelled: 'delivery.order.cancelled',
  returning: 'delivery.order.returning',
  returned: 'delivery.order.returned',
};

type EventSubject = Pick<
  OrderRow,
  | 'id'
  | 'app_id'
  | 'environment'
  | 'version'
  | 'webhook_url'
  | 'order_reference'
  | 'status'
  | 'cancellation_reason'
> &
  Partial<
    Pick<OrderRow, 'delivery_attempts' | 'failure_reason' | 'failure_note' | 'return_fee_pesewas'>
  >;

/** Additive event fields once a delivery has failed: the attempts made, the latest reason, and a return fee charged. */
function failureData(row: EventSubject) {
  if (!row.failure_reason) return {};
  return {
    delivery_attempts: row.delivery_attempts,
    failure_reason: row.failure_reason,
    failure_note: row.failure_note ?? null,
    ...(row.return_fee_pesewas != null
      ? { return_fee_ghs: pesewasToGhs(row.return_fee_pesewas) }
      : {}),
  };
}

const owner = (auth: AuthContext): Owner => ({ appId: auth.appId, environment: auth.environment });
const notFound = () => errors.orderNotFound('No order with this order_id exists for this app.');

/** Statuses an order ends in (a deleted test clock's orders leave those alone). */
const ENDED: ReadonlySet<string> = new Set(['delivered', 'cancelled', 'returned', 'failed']);

const isRefusedDebit = (err: unknown) =>
  err instanceof AppError && err.code === 'INSUFFICIENT_WALLET_BALANCE';

/** Delivery orders: creation, reads, cancellation and status moves, each with its events in one transaction. */
export class OrdersService {
  private readonly listeners: MoveListener[] = [];
  private readonly placeStatements: PlaceStatement[] = [];

  constructor(private readonly deps: OrdersServiceDeps) {}

  onMove(listener: MoveListener): void {
    this.listeners.push(listener);
  }

  onPlace(statement: PlaceStatement): void {
    this.placeStatements.push(statement);
  }

  async create(owner: OrderOwner, input: CreateOrderInput): Promise<OrderRow> {
    // An order on a test clock is created at the clock's time: every "now" below is the clock's.
    if (input.test_clock_id !== undefined)
      return atClockTime(
        await this.deps.clocks.timeOf(owner, input.test_clock_id),
        () => this.createNow(owner, input),
        input.test_clock_id,
      );
    return this.createNow(owner, input);
  }

  private async createNow(owner: OrderOwner, input: CreateOrderInput): Promise<OrderRow> {
    const prepared = await this.prepare(owner, input);
    try {
      // One statement writes the order, its event, the placement statements and a partner-paid
      // order's debit: atomic without a transaction.
      return await this.place(this.deps.db, prepared).catch(async (err: unknown) => {
        // A refused debit may be of a wallet not yet created (or created since the statement
        // began): once it exists, one more try answers for the balance itself.
        if (prepared.order.payer !== 'partner' || !isRefusedDebit(err)) throw err;
        await this.deps.wallet.openWallet(owner.partnerId);
        return this.place(this.deps.db, prepared);
      });
    } catch (err) {
      throw await this.replayOfQuotedOrder(err, owner, input);
    }
  }

  /** Two tries of one quoted order racing: the loser is a duplicate reference (409), as without a quote. */
  private async replayOfQuotedOrder(err: unknown, owner: OrderOwner, input: CreateOrderInput) {
    if ((err as { code?: string }).code !== 'QUOTE_ALREADY_USED') return err;
    const existing = await repo.findOwnedByReference(this.deps.db, input.order_reference, owner);
    return existing?.order.quote_id === input.quote_id
      ? errors.duplicateOrderReference(
          'An order with this order_reference already exists for this app; fetch it with orders.get.',
        )
      : err;
  }

  /** Validates and prices an order (INVALID_ORDER_PAYLOAD); touches nothing. */
  async prepare(owner: OrderOwner, input: CreateOrderInput): Promise<PreparedOrder> {
    const now = new Date(this.deps.clock());
    const order = await normalizeOrder(input, {
      ...this.deps.normalize,
      environment: owner.environment,
      now,
    });
    // The quoted fee replaces the computed one, whoever pays (normalize has checked the rest).
    if (input.quote_id !== undefined)
      order.feePesewas = await this.deps.quotes.feeOf(owner, input, now, input.test_clock_id);
    return { owner, order, now };
  }

  /**
   * Writes a prepared order with its event (one statement) and its wallet debit inside the caller's
   * transaction, so a caller can tie the order to its own state change atomically. The order's
   * first timeline entry is its own creation (see the repository).
   */
  // biome-ignore lint/complexity/noExcessiveLinesPerFunction: the order's one insert lists each column beside its value; split, the two would drift apart
  async place(tx: Queryable, { owner, order, now }: PreparedOrder): Promise<OrderRow> {
    const { input } = order;
    const paymentStatus: PaymentStatus = order.payer === 'partner' ? 'wallet_debited' : 'pending';
    const id = newId('dlv');
    const webhookUrl = input.webhook_url ?? null;
    const created = (firstParam: number) =>
      eventStatement(
        this.event(
          'delivery.order.created',
          {
            id,
            app_id: owner.appId,
            environment: owner.environment,
            version: 1,
            webhook_url: webhookUrl,
            order_reference: input.order_reference,
            status: 'placed',
            cancellation_reason: null,
          },
          null,
          now,
        ),
        firstParam,
      );
    const wake: string[] = [];
    const posted: Array<() => void> = [];
    const placed: PlacedOrder = {
      orderId: id,
      environment: owner.environment,
      at: now,
      pickup: input.pickup.coordinates ?? null,
      dropoff: input.delivery.coordinates ?? null,
      pickupRegion: order.pickupRegion,
      pickupReadyAt: order.window?.pickupReadyAt ?? null,
      dropoffDeadline: order.window?.dropoffDeadline ?? null,
      testClockId: input.test_clock_id ?? null,
    };
    const { row, eventPending } = await repo.insertWithEvent(
      tx,
      {
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
          delivery_digital_address: order.deliveryDigitalAddress,
          item: input.item,
          pickup_contact_person: input.pickup.contact_person,
          pickup_contact_phone: order.pickupPhone,
          pickup_address: input.pickup.address ?? null,
          pickup_lat: input.pickup.coordinates?.lat ?? null,
          pickup_lng: input.pickup.coordinates?.lng ?? null,
          pickup_location_id: input.pickup.location_id ?? null,
          pickup_digital_address: order.pickupDigitalAddress,
          pickup_region: order.pickupRegion,
          dropoff_region: order.dropoffRegion,
          service_area: order.serviceArea,
          payer: order.payer,
          payment_method: input.payment?.method ?? null,
          payment_is_paid: input.payment?.is_paid ?? null,
          payment_status: paymentStatus,
          fee_pesewas: order.feePesewas,
          // A window's ready time sets the pickup day: delivery_date is then ignored, and not kept.
          requested_date: order.window?.pickupReadyAt ? null : (input.delivery_date ?? null),
          pickup_date: order.pickupDate,
          estimated_delivery: order.estimatedDelivery,
          special_instructions: input.special_instructions ?? null,
          webhook_url: webhookUrl,
          quote_id: input.quote_id ?? null,
          pickup_ready_at: order.window?.pickupReadyAt ?? null,
          dropoff_deadline: order.window?.dropoffDeadline ?? null,
          test_clock_id: input.test_clock_id ?? null,
          tracking_token: randomToken(18),
          created_at: now,
          updated_at: now,
        },
      },
      created,
      [
        ...this.placeStatements.map((statement) => (first: number) => {
          const joined = statement(placed, first);
          if (joined.notify) wake.push(joined.notify);
          return joined;
        }),
        ...(order.payer === 'partner'
          ? [
              (first: number) => {
                const debit = this.deps.wallet.orderFeeDebit(
                  {
                    partnerId: owner.partnerId,
                    orderId: id,
                    feePesewas: order.feePesewas!,
                    at: now,
                  },
                  first,
                );
                posted.push(debit.posted);
                return debit;
              },
            ]
          : []),
      ],
    );
    // The webhook dispatchers only for an event to send (not one finished as nobody's to receive).
    if (eventPending) eventsWritten(tx);
    // Whoever queued work with the order (dispatch's job) is woken by its commit, not by a poll.
    for (const channel of wake) tx.notify(channel);
    for (const effect of posted) tx.afterCommit(effect);
    return row;
  }

  /**
   * The order with its timeline and another module's answer about it (`with`, e.g. its proof), all
   * in one statement; by id or by the app's reference.
   */
  async getWith<T, C extends OrderColumns = 'order'>(
    auth: AuthContext,
    lookup: { order_id: string } | { order_reference: string },
    with_: ReadAlongside<T>,
    columns?: C,
  ): Promise<OrderWithTimeline<OrderOf<C>> & { alongside: T }> {
    const column = with_.column('delivery_orders.id');
    const found =
      'order_id' in lookup
        ? await repo.findOwned(this.deps.db, lookup.order_id, owner(auth), column, columns)
        : await repo.findOwnedByReference(
            this.deps.db,
            lookup.order_reference,
            owner(auth),
            column,
            columns,
          );
    if (!found)
      throw 'order_id' in lookup
        ? notFound()
        : errors.orderNotFound('No order with this order_reference exists for this app.');
    return { ...found, alongside: with_.read(found.alongside) };
  }

  /** Any order by id, whoever owns it (for other modules acting on it, e.g. dispatch). */
  async find(orderId: string, q: Queryable = this.deps.db): Promise<OrderRow | undefined> {
    return repo.findById(q, orderId);
  }

  /** The courier's view of an order (the courier app's job screen). */
  async jobSheet(orderId: string, q: Queryable = this.deps.db): Promise<JobSheet | undefined> {
    return jobSheetRepository.find(q, orderId);
  }

  /**
   * The order's pickup → drop-off road estimate in km, as pricing reckons it (couriers' pay per km);
   * 0 when either point has no coordinates.
   */
  async roadKm(orderId: string, q: Queryable = this.deps.db): Promise<number> {
    const sheet = await jobSheetRepository.find(q, orderId);
    if (sheet?.pickup_lat == null || sheet.pickup_lng == null) return 0;
    if (sheet.delivery_lat == null || sheet.delivery_lng == null) return 0;
    const pickup = { lat: sheet.pickup_lat, lng: sheet.pickup_lng };
    return roadKm(
      pickup,
      { lat: sheet.delivery_lat, lng: sheet.delivery_lng },
      this.deps.normalize.pricing,
    );
  }

  async history(orderId: string) {
    return (await repo.findWithTimeline(this.deps.db, orderId))?.events ?? [];
  }

  async cancel(auth: AuthContext, orderId: string, reason: string | undefined): Promise<OrderRow> {
    const found = await repo.findOwned(this.deps.db, orderId, owner(auth));
    if (!found) throw notFound();
    const cancel = () =>
      this.move(found.order, 'cancelled', { note: reason ?? 'Cancelled by the partner' });
    const clockId = found.order.test_clock_id;
    if (clockId === null) return cancel();
    // An order on a test clock is cancelled at the clock's time; once its clock is deleted, at ours.
    const at = await this.deps.clocks.timeOf(owner(auth), clockId).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'TEST_CLOCK_NOT_FOUND') return undefined;
      throw err;
    });
    return at === undefined ? cancel() : atClockTime(at, cancel, clockId);
  }

  /**
   * The orders of a deleted sandbox test clock end, in real time (nothing would move them again):
   * each still open is cancelled, as a partner's cancel would (its refund, its webhook), or one on
   * its way back is returned, as the sandbox courier would finish it. Answers how many ended; an
   * order that ended meanwhile is skipped, so a delete run again after a crash ends the rest.
   */
  async endOnDeletedClock(clockId: string): Promise<number> {
    const open = await repo.openOnClock(this.deps.db, clockId);
    let ended = 0;
    for (const order of open) {
      const to = canCancel(order.status) ? 'cancelled' : 'returned';
      try {
        await this.move(order, to, { note: 'Test clock deleted', by: 'operator' });
        ended += 1;
      } catch (err) {
        // An operator or the partner ended it meanwhile: nothing is left to do for it.
        const now = await repo.findById(this.deps.db, order.id);
        if (!now || !ENDED.has(now.status)) throw err;
      }
    }
    return ended;
  }

  /** An operator's move; 409 INVALID_TRANSITION when the status machine forbids it. */
  async operatorMove(
    orderId: string,
    to: DeliveryStatus,
    note: string | undefined,
    failureReason?: FailureReason,
  ): Promise<OrderRow> {
    const order = await repo.findById(this.deps.db, orderId);
    if (!order) throw errors.orderNotFound(`There is no order ${orderId}.`);
    return this.move(order, to, {
      note: note ?? (to === 'cancelled' ? 'Cancelled by operations' : undefined),
      by: 'operator',
      failureReason,
    });
  }

  /** The moves an order may make now (its delivery attempts counted), for the console. */
  allowedMoves(order: Pick<OrderRow, 'status' | 'delivery_attempts'>): DeliveryStatus[] {
    return allowedMoves(order.status, this.attemptsLeft(order));
  }

  private attemptsLeft(order: Pick<OrderRow, 'status' | 'delivery_attempts'>): number {
    return attemptsLeft(order.status, order.delivery_attempts, this.deps.maxAttempts);
  }

  /**
   * Applies one status change with its timeline entry, its webhook event and, for a returned
   * wallet-funded order, its return fee, all in one transaction. The compare-and-set on the
   * status and version makes a concurrent move lose cleanly instead of both applying. A refused
   * cancel is the partner's 400 INVALID_ORDER_STATUS, or for operators the 409 INVALID_TRANSITION
   * of any move. A could-not-deliver move (another attempt, or returning) needs a failure reason.
   */
  async move(order: OrderRow, to: DeliveryStatus, opts: MoveOptions = {}): Promise<OrderRow> {
    const now = new Date(this.deps.clock());
    for (let current = order; ; ) {
      this.checkMove(current, to, opts);
      const from = current;
      const moved = await this.deps.db.transaction((tx) => this.apply(tx, from, to, opts, now));
      if (moved) return moved;
      const fresh = await repo.findById(this.deps.db, current.id);
      if (!fresh) throw notFound();
      current = fresh;
    }
  }

  /**
   * The same move inside the caller's transaction (dispatch ties a courier's action to it). The
   * order is read again under a row lock; a move the machine forbids throws INVALID_TRANSITION.
   */
  async moveIn(
    tx: Queryable,
    orderId: string,
    to: DeliveryStatus,
    opts: MoveOptions,
  ): Promise<OrderRow> {
    const current = await repo.lockById(tx, orderId);
    if (!current) throw notFound();
    this.checkMove(current, to, opts);
    return (await this.apply(tx, current, to, opts, new Date(this.deps.clock())))!;
  }

  private checkMove(current: OrderRow, to: DeliveryStatus, opts: MoveOptions): void {
    const left = this.attemptsLeft(current);
    if (to === 'cancelled' && !canCancel(current.status)) {
      if ((opts.by ?? 'partner') !== 'partner') throw invalidTransition(current.status, to, left);
      throw errors.invalidOrderStatus(
        `The order is already ${current.status} and cannot be cancelled.`,
      );
    }
    if (to !== 'cancelled' && !canTransition(current.status, to, left))
      throw invalidTransition(current.status, to, left);
    checkFailure(current.status, to, opts);
  }

  /** One compare-and-set move with its timeline entry, event, return fee and listeners; undefined when another move won. */
  private async apply(
    tx: Queryable,
    from: OrderRow,
    to: DeliveryStatus,
    opts: MoveOptions,
    now: Date,
  ): Promise<OrderRow | undefined> {
    const { note, failureReason } = opts;
    const fee =
      to === 'returned' && from.payer === 'partner'
        ? returnFee(from.fee_pesewas ?? 0, this.deps.returnFeePercent)
        : 0;
    const row = await repo.transition(tx, from, to, now, {
      cancellationReason: to === 'cancelled' ? note : undefined,
      paymentStatus: to === 'cancelled' && from.payer === 'partner' ? 'refund_pending' : undefined,
      failure: failureReason ? { reason: failureReason, note: note ?? null } : undefined,
      returnFeePesewas: fee > 0 ? fee : undefined,
    });
    if (!row) return undefined;
    if (fee > 0)
      await this.deps.wallet.chargeReturnFee(tx, {
        partnerId: row.partner_id,
        orderId: row.id,
        feePesewas: fee,
        at: now,
      });
    await repo.insertEvent(tx, row.id, row.version, to, note ?? null, now);
    await this.emit(tx, row, EVENT_OF[to] ?? 'delivery.order.status_changed', from.status, now);
    for (const listener of this.listeners) await listener(tx, row, from.status);
    return row;
  }

  private async emit(
    tx: Queryable,
    row: OrderRow,
    type: OrderEventType,
    previous: DeliveryStatus | null,
    at: Date,
  ) {
    await appendEvent(tx, this.event(type, row, previous, at));
  }

  private event(
    type: OrderEventType,
    row: EventSubject,
    previous: DeliveryStatus | null,
    at: Date,
  ): OutboxEvent {
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
        ...(type === 'delivery.order.cancelled'
          ? { cancellation_reason: row.cancellation_reason }
          : {}),
        ...failureData(row),
      },
    };
  }
}
