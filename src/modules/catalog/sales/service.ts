import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../platform/logger.ts';
import type { AuthContext } from '../../../platform/auth/context.ts';
import type { Db, Queryable } from '../../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../../platform/errors.ts';
import { newId, ulid } from '../../../platform/ids.ts';
import { ghsToPesewas } from '../../../platform/money.ts';
import { GatewayError, type PaymentStatus } from '../../../integrations/payments/gateway.ts';
import type { PaymentGateways } from '../../../integrations/payments/index.ts';
import type { DeliveryStatus } from '../../delivery/index.ts';
import { isInGhana, normalizeGhanaPhone, type LatLng } from '../../../shared/ghana/index.ts';
import type { DeliveryOrder } from '../../delivery/index.ts';
import { buyerPoint } from '../domain/buyer-point.ts';
import { commissionOf } from '../domain/money.ts';
import { stockRepository as stock } from '../products/stock.ts';
import { isRefusal, newDeliveryReference, type Dispatcher } from './dispatch.ts';
import {
  confirmSale,
  failSale,
  failUndelivered,
  followDelivery,
  holdSale,
  owePaymentBack,
} from './lifecycle.ts';
import { checkoutLines, priceLines, type Line } from './lines.ts';
import type { DeliveryQuoter } from './quote.ts';
import {
  salesRepository as repo,
  type Owner,
  type SalePaymentStatus,
  type SaleRow,
  type SaleState,
  type SaleWithDelivery,
} from './repository.ts';
import type { CreateSaleInput } from './schema.ts';

/** The gateway's client reference of a sale: a neutral service token, like the wallet's serviceD_WA. */
export const SALE_CLIENT_REFERENCE = /^serviceS_SC[0-9a-f]{16}$/;

export interface SalesServiceDeps {
  db: Db;
  clock: () => number;
  log: Logger;
  gateways: PaymentGateways;
  publicBaseUrl: string;
  appReturnUrl: (appId: string) => Promise<string | null>;
  quoter: DeliveryQuoter;
  dispatcher: Dispatcher;
  /** An unpaid prepaid sale fails this long after its checkout opened (CHECKOUT_EXPIRY_MINUTES). */
  checkoutExpiryMs: number;
}

const owner = (auth: AuthContext): Owner => ({ appId: auth.appId, environment: auth.environment });
const notFound = () =>
  errors.saleNotFound('No sale with this id or reference exists for this app.');
/** A prepaid sale that failed before any payment was booked for it: a payment may still arrive. */
const mayBePaidLate = (s: SaleRow) =>
  s.payment_method === 'online' && s.state === 'failed' && s.gateway_amount_pesewas === null;
const isEnded = (s: DeliveryStatus | null): s is DeliveryStatus =>
  s === 'delivered' || s === 'returned' || s === 'cancelled' || s === 'failed';

function invalid(details: ErrorDetail[]): never {
  throw errors.validation(`${details[0]!.field} ${details[0]!.issue}.`, details);
}

function gatewayFailure(err: unknown): never {
  if (err instanceof GatewayError)
    throw errors.gateway(
      'The payment gateway did not answer properly; nothing was charged. Retry shortly.',
    );
  throw err;
}

/** Human-facing sale reference: SC- and 10 Crockford base32 characters (no I, L, O, U to misread). */
const humanReference = () => `SC-${ulid().slice(-10)}`;

/** Safe-catalog orders: creation with stock reservation, verification, settlement and failure. */
export class SalesService {
  constructor(private readonly deps: SalesServiceDeps) {}

  async create(auth: AuthContext, input: CreateSaleInput) {
    const { db, dispatcher } = this.deps;
    if (!dispatcher.available) {
      throw errors.serviceUnavailable(
        'This instance does not serve the delivery service, which every safe-catalog order needs; nothing was reserved. Send orders.create to an instance serving both services.',
      );
    }
    if (input.payment_method === 'cod' && (input.reseller_markup_ghs ?? 0) > 0) {
      throw errors.markupNotSupportedForCod(
        'reseller_markup_ghs must be 0 or absent with cod: a reseller markup needs payment_method online.',
      );
    }
    const { phone, markup, point } = this.checkInput(input);
    const gateway =
      input.payment_method === 'online'
        ? this.deps.gateways.forPayment(auth.environment)
        : undefined;
    const { vendor, lines, subtotal } = await priceLines(db, input.vendor_id, input.items);
    if (markup > subtotal)
      invalid([{ field: 'reseller_markup_ghs', issue: 'must not exceed the order subtotal' }]);
    const quote = await this.deps.quoter.quote(
      { ...input.delivery, lat: point?.lat, lng: point?.lng },
      { lat: vendor.pickup_lat, lng: vendor.pickup_lng },
    );
    const now = new Date(this.deps.clock());
    const online = input.payment_method === 'online';
    const sale = await db.transaction(async (tx) => {
      // The insert comes first: a duplicate reference fails fast (409) before any stock is touched.
      const row = await repo.insert(tx, {
        id: newId('sale'),
        app_id: auth.appId,
        partner_id: auth.partnerId,
        environment: auth.environment,
        reference: humanReference(),
        client_reference: `serviceS_SC${randomBytes(8).toString('hex')}`,
        external_reference: input.external_reference,
        vendor_id: vendor.id,
        payment_method: input.payment_method,
        state: online ? 'awaiting_payment' : 'awaiting_delivery',
        payment_status: 'pending',
        buyer_name: input.buyer.name.trim(),
        buyer_phone: phone,
        delivery_address: input.delivery.address.trim(),
        delivery_area_id: input.delivery.area_id ?? null,
        delivery_lat: point?.lat ?? null,
        delivery_lng: point?.lng ?? null,
        quote_lat: quote.point.lat,
        quote_lng: quote.point.lng,
        quote_source: quote.source,
        subtotal_pesewas: subtotal,
        commission_pesewas: commissionOf(subtotal, vendor.commission_bps),
        delivery_fee_pesewas: quote.feePesewas,
        markup_pesewas: markup,
        total_pesewas: subtotal + quote.feePesewas + markup,
        gateway: gateway?.name ?? null,
        expires_at: online ? new Date(now.getTime() + this.deps.checkoutExpiryMs) : null,
        delivery_reference: newDeliveryReference(),
        created_at: now,
      });
      await repo.insertItems(tx, row.id, lines);
      await this.reserve(tx, lines, now);
      return row;
    });
    if (online) return this.openCheckout(sale, lines);
    await this.dispatchNew(sale);
    return sale;
  }

  async verify(auth: AuthContext, saleId: string) {
    const sale = await repo.findOwned(this.deps.db, { saleId }, owner(auth));
    if (!sale) throw notFound();
    return this.refresh(sale);
  }

  async get(auth: AuthContext, key: { saleId: string } | { externalReference: string }) {
    const sale = await repo.findOwned(this.deps.db, key, owner(auth));
    if (!sale) throw notFound();
    return { sale, items: await repo.items(this.deps.db, sale.id) };
  }

  /** Operators: sales by state and payment status (held payments, refunds owed), oldest first. */
  async operatorList(
    filter: { state?: SaleState; paymentStatus?: SalePaymentStatus },
    limit: number,
    after: string | undefined,
  ) {
    const sales = await repo.list(this.deps.db, filter, limit, after);
    return { sales, nextAfter: sales.length === limit ? sales.at(-1)!.id : null };
  }

  /** A gateway callback: a hint to check the gateway now. References that are not sales are ignored. */
  async handleCallback(clientReference: string): Promise<void> {
    if (!SALE_CLIENT_REFERENCE.test(clientReference)) return;
    const sale = await repo.findByClientReference(this.deps.db, clientReference);
    if (sale && (sale.state === 'awaiting_payment' || mayBePaidLate(sale)))
      await this.refresh(sale);
  }

  /** The job's answer to a sale whose delivery order is refused for good: it fails (and restocks) instead of retrying forever. */
  async failUndeliverable(saleId: string, reason: string): Promise<void> {
    await this.inTransaction(saleId, async (tx, sale) => {
      if (sale.delivery_order_id === null)
        await failUndelivered(tx, sale, reason, new Date(this.deps.clock()));
    });
  }

  /** The delivery move listener: runs inside the move's transaction, so the sale follows its delivery atomically. */
  async onDeliveryMove(tx: Queryable, order: DeliveryOrder): Promise<void> {
    if (!isEnded(order.status)) return;
    const sale = await repo.lockByDeliveryOrder(tx, order.id);
    if (sale) await followDelivery(tx, sale, order.status, new Date(this.deps.clock()));
  }

  /** For the courier's cash check: the delivery order's sale, if it has one, and what the courier collects for it (a cod sale still awaiting delivery). */
  async cashOnDelivery(
    tx: Queryable,
    deliveryOrderId: string,
  ): Promise<{ codPesewas: number } | undefined> {
    const sale = await repo.lockByDeliveryOrder(tx, deliveryOrderId);
    if (!sale) return undefined;
    return {
      codPesewas:
        sale.payment_method === 'cod' && sale.state === 'awaiting_delivery'
          ? sale.total_pesewas
          : 0,
    };
  }

  /** Brings a sale up to date with the gateway and its delivery; every change is a compare-and-set. */
  async refresh(sale: SaleWithDelivery): Promise<SaleWithDelivery> {
    if (sale.state === 'awaiting_payment') await this.checkPayment(sale);
    // A failed prepaid sale may still be paid at the gateway; an outage must not fail the read.
    else if (mayBePaidLate(sale))
      await this.checkPayment(sale).catch((err: unknown) =>
        this.deps.log.warn(
          { err, sale: sale.id },
          'could not check a failed sale with the gateway',
        ),
      );
    else if (isEnded(sale.delivery_status)) await this.follow(sale.id, sale.delivery_status);
    let fresh = (await repo.findById(this.deps.db, sale.id))!;
    const owed =
      fresh.delivery_order_id === null &&
      (fresh.state === 'awaiting_delivery' ||
        (fresh.state === 'confirmed' && fresh.payment_method === 'online'));
    if (owed) {
      // Paid just now (or an earlier dispatch failed): the delivery order is created at once.
      await this.deps.dispatcher.tryDispatch(fresh);
      fresh = (await repo.findById(this.deps.db, sale.id))!;
    }
    return fresh;
  }

  /** Online: paid confirms and settles; failed, or still unpaid past the deadline, fails and restocks. */
  async checkPayment(sale: SaleRow): Promise<void> {
    let status: PaymentStatus;
    try {
      status = await this.deps.gateways
        .recorded(sale.gateway)
        .checkStatus({ clientReference: sale.client_reference, checkoutId: sale.checkout_id });
    } catch (err) {
      gatewayFailure(err);
    }
    const now = new Date(this.deps.clock());
    const expired = sale.expires_at !== null && now.getTime() > sale.expires_at.getTime();
    const collected = status.amountPesewas ?? sale.total_pesewas;
    await this.inTransaction(sale.id, async (tx, locked) => {
      if (status.state === 'paid' && mayBePaidLate(locked)) {
        await owePaymentBack(tx, locked, collected, now);
        return;
      }
      if (locked.state !== 'awaiting_payment') return;
      if (status.state === 'paid') {
        if (collected !== locked.total_pesewas) await holdSale(tx, locked, collected, now);
        else await confirmSale(tx, locked, 'paid', now);
      } else if (status.state === 'failed' || expired) {
        const lapsed = expired || status.rawStatus === 'Expired';
        await failSale(
          tx,
          locked,
          lapsed
            ? { paymentStatus: 'expired', reason: 'checkout_expired' }
            : { paymentStatus: 'declined', reason: 'payment_declined' },
          now,
        );
      }
    });
  }

  async follow(saleId: string, status: DeliveryStatus): Promise<void> {
    await this.inTransaction(saleId, (tx, sale) =>
      followDelivery(tx, sale, status, new Date(this.deps.clock())),
    );
  }

  private async inTransaction(
    saleId: string,
    fn: (tx: Queryable, sale: SaleRow) => Promise<unknown>,
  ): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const sale = await repo.lock(tx, saleId);
      if (sale) await fn(tx, sale);
    });
  }

  /** Checks a schema cannot express; answers the buyer's phone in E.164, the markup in pesewas and the buyer's point. */
  private checkInput(input: CreateSaleInput): {
    phone: string;
    markup: number;
    point: LatLng | undefined;
  } {
    const details: ErrorDetail[] = [];
    const phone = normalizeGhanaPhone(input.buyer.phone);
    if (!phone)
      details.push({
        field: 'buyer.phone',
        issue: 'must be a Ghana phone number, e.g. 024 123 4567 or +233241234567',
      });
    if (!input.buyer.name.trim()) details.push({ field: 'buyer.name', issue: 'must not be blank' });
    if (!input.delivery.address.trim())
      details.push({ field: 'delivery.address', issue: 'must not be blank' });
    const markup = ghsToPesewas(input.reseller_markup_ghs ?? 0);
    if (markup === null)
      details.push({ field: 'reseller_markup_ghs', issue: 'must have at most 2 decimals' });
    const { lat, lng, coordinates } = input.delivery;
    const found = buyerPoint(input.delivery);
    if ((lat === undefined) !== (lng === undefined))
      details.push({
        field: lat === undefined ? 'delivery.lat' : 'delivery.lng',
        issue: 'is required when the other coordinate is given',
      });
    else if ('point' in found && found.point && !isInGhana(found.point)) {
      details.push(
        coordinates
          ? { field: 'delivery.coordinates', issue: 'is outside Ghana, where we do not deliver' }
          : {
              field: 'delivery.lat',
              issue: 'with delivery.lng is outside Ghana, where we do not deliver',
            },
      );
    }
    if (details.length > 0) invalid(details);
    if ('conflict' in found) {
      throw errors.conflictingCoordinates(
        'delivery.coordinates and delivery.lat/lng name different points: send delivery.coordinates alone (the canonical form), or both with the same values.',
        [{ field: 'delivery.coordinates', issue: 'differs from delivery.lat/lng' }],
      );
    }
    return { phone: phone!, markup: markup!, point: found.point };
  }

  /** Holds every line's units or none: a shortfall throws OUT_OF_STOCK and the transaction rolls back. */
  private async reserve(tx: Queryable, lines: readonly Line[], at: Date): Promise<void> {
    const wanted = new Map<string, { quantity: number; line: Line }>();
    for (const line of lines) {
      const w = wanted.get(line.variant_id);
      wanted.set(line.variant_id, {
        quantity: (w?.quantity ?? 0) + line.quantity,
        line: w?.line ?? line,
      });
    }
    const short: ErrorDetail[] = [];
    // Variant id order: concurrent orders lock shared variants in one order, so they cannot deadlock.
    for (const [variantId, { quantity, line }] of [...wanted].sort(([a], [b]) =>
      a < b ? -1 : 1,
    )) {
      if (await stock.reserve(tx, variantId, quantity, at)) continue;
      const left = await stock.available(tx, variantId);
      short.push({
        field: `items.${line.index}.variant_id`,
        issue: `${variantId} (${line.title}, ${line.label}) has ${left} available; ${quantity} asked`,
      });
    }
    if (short.length > 0) throw errors.outOfStock(`Not enough stock: ${short[0]!.issue}.`, short);
  }

  /** Online: the gateway is called after the sale committed; a failure gives back stock and reference (502). */
  private async openCheckout(sale: SaleRow, lines: readonly Line[]): Promise<SaleRow> {
    const { publicBaseUrl, db } = this.deps;
    const gateway = this.deps.gateways.recorded(sale.gateway);
    const back = new URL(
      (await this.deps.appReturnUrl(sale.app_id)) ?? `${publicBaseUrl}/checkout/complete`,
    );
    back.searchParams.set('sale_id', sale.id);
    try {
      const checkout = await gateway.createCheckout({
        clientReference: sale.client_reference,
        amountPesewas: sale.total_pesewas,
        description: `Order ${sale.reference}`,
        callbackUrl: `${publicBaseUrl}/webhooks/payments/${gateway.name}`,
        returnUrl: back.toString(),
        cancellationUrl: back.toString(),
        lines: checkoutLines(lines, sale),
      });
      // The deadline runs from the checkout's opening, so the sale never expires while the gateway still takes payment.
      const expiresAt = new Date(this.deps.clock() + this.deps.checkoutExpiryMs);
      await repo.setCheckout(db, sale.id, checkout, expiresAt, new Date(this.deps.clock()));
      return {
        ...sale,
        checkout_id: checkout.checkoutId,
        checkout_url: checkout.checkoutUrl,
        expires_at: expiresAt,
      };
    } catch (err) {
      await this.releaseAttempt(sale.id, 'gateway_error');
      gatewayFailure(err);
    }
  }

  /** Cod: the delivery order now. Refused by delivery (4xx): the attempt is undone; anything else: the job retries. */
  private async dispatchNew(sale: SaleRow): Promise<void> {
    try {
      await this.deps.dispatcher.dispatch(sale);
    } catch (err) {
      if (!isRefusal(err)) {
        this.deps.log.warn(
          { err, sale: sale.id },
          'delivery order not created yet; the sales job retries',
        );
        return;
      }
      await this.releaseAttempt(sale.id, 'delivery_refused');
      throw errors.validation(
        `The delivery order could not be created: ${err.message}`,
        err.details,
      );
    }
  }

  /** Undoes an attempt the partner is answered 4xx or 502 for: stock and external_reference are released. */
  private async releaseAttempt(saleId: string, reason: string): Promise<void> {
    await this.inTransaction(saleId, async (tx, sale) => {
      if (sale.state === 'failed' || sale.delivery_order_id !== null) return;
      await failSale(
        tx,
        sale,
        { paymentStatus: 'not_started', reason, releaseReference: true },
        new Date(this.deps.clock()),
      );
    });
  }
}
