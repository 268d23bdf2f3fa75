import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../platform/logger.ts';
import type { Db, Queryable } from '../../../platform/db/index.ts';
import { isAppError, type AppError } from '../../../platform/errors.ts';
import { formatGhs, pesewasToGhs } from '../../../platform/money.ts';
import type { CreateOrderInput } from '../../delivery/index.ts';
import type { OrderOwner, PreparedOrder } from '../../delivery/index.ts';
import { catalogRepository } from '../products/repository.ts';
import type { VendorRow } from '../products/repository.ts';
import type { DeliveryQuoter } from './quote.ts';
import { salesRepository as repo, type SaleItemRow, type SaleRow } from './repository.ts';

/** The delivery service as the catalog uses it: present when this instance serves delivery. */
export interface DeliveryPort {
  prepare(owner: OrderOwner, input: CreateOrderInput): Promise<PreparedOrder>;
  place(tx: Queryable, prepared: PreparedOrder): Promise<{ id: string }>;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The delivery order's reference, chosen when the sale is written: random, so a partner cannot
 * create an order with it first, and fixed, so two dispatches of one sale collide on it.
 */
export const newDeliveryReference = () => `safe-${randomBytes(12).toString('base64url')}`;

/**
 * The delivery order of a sale: from the vendor's pickup point to the buyer, recipient-pays so
 * the wallet is never touched (design: Safe-catalog orders). Its `payment.amount` is the delivery fee only (when the
 * buyer gave no coordinates it is the fee, quoted from the same formula; with coordinates the
 * delivery service prices the same points to the same fee). What the rider collects is said in
 * `special_instructions`: the sale total for cash on delivery, nothing for a prepaid sale.
 */
export function deliveryInput(
  sale: SaleRow,
  vendor: VendorRow,
  items: readonly SaleItemRow[],
  place: { region: string; city: string },
): CreateOrderInput {
  const collect =
    sale.payment_method === 'cod'
      ? `Cash on delivery: collect ${formatGhs(sale.total_pesewas)} from the buyer (goods ${formatGhs(sale.subtotal_pesewas)} + delivery ${formatGhs(sale.delivery_fee_pesewas)}).`
      : 'Prepaid order: collect nothing from the buyer.';
  return {
    order_reference: sale.delivery_reference,
    customer: { name: sale.buyer_name, phone: sale.buyer_phone },
    delivery: {
      address: sale.delivery_address,
      city: place.city,
      region: place.region,
      ...(sale.delivery_lat !== null && sale.delivery_lng !== null
        ? { coordinates: { lat: sale.delivery_lat, lng: sale.delivery_lng } }
        : {}),
      ...(sale.delivery_area_id ? { location_id: sale.delivery_area_id } : {}),
    },
    item: clip(items.map((i) => `${i.quantity} x ${i.title} (${i.label})`).join('; '), 500),
    pickup: {
      contact_person: vendor.pickup_contact_person,
      contact_phone: vendor.pickup_contact_phone,
      address: vendor.pickup_address,
      coordinates: { lat: vendor.pickup_lat, lng: vendor.pickup_lng },
    },
    payment: {
      payer: 'recipient',
      ...(sale.payment_method === 'cod' ? { method: 'cash' as const } : {}),
      amount: pesewasToGhs(sale.delivery_fee_pesewas),
      is_paid: sale.payment_method === 'online',
    },
    special_instructions: `${collect} Safe-catalog sale ${sale.reference} from ${vendor.name}.`,
  };
}

/** Refused by delivery for good (its input is wrong), as opposed to a failure worth retrying. */
export const isRefusal = (err: unknown): err is AppError => isAppError(err) && err.statusCode < 500;

const owed = (sale: SaleRow) =>
  sale.delivery_order_id === null &&
  (sale.state === 'awaiting_delivery' ||
    (sale.state === 'confirmed' && sale.payment_method === 'online'));

/**
 * Creates sales' delivery orders. The order is placed and linked in one transaction that holds
 * the sale's row lock: a crash leaves either both or neither, and of two dispatches of one sale
 * the second finds it linked.
 */
export class Dispatcher {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      delivery: DeliveryPort | undefined;
      quoter: DeliveryQuoter;
    },
  ) {}

  get available(): boolean {
    return this.deps.delivery !== undefined;
  }

  /** Creates and links the delivery order; false when it already exists, the sale no longer needs one, or delivery is not served here. */
  async dispatch(sale: SaleRow): Promise<boolean> {
    const { db, delivery } = this.deps;
    if (!delivery || !owed(sale)) return false;
    const vendor = (await catalogRepository.getVendor(db, sale.vendor_id))!;
    const input = deliveryInput(
      sale,
      vendor,
      await repo.items(db, sale.id),
      await this.deps.quoter.describe({ lat: sale.quote_lat, lng: sale.quote_lng }),
    );
    // The order belongs to the sale's app and environment, whoever triggers the dispatch (a callback has no key).
    const prepared = await delivery.prepare(
      { partnerId: sale.partner_id, appId: sale.app_id, environment: sale.environment },
      input,
    );
    return db.transaction(async (tx) => {
      const locked = await repo.lock(tx, sale.id);
      if (!locked || !owed(locked)) return false;
      const order = await delivery.place(tx, prepared);
      await repo.linkDelivery(tx, sale.id, order.id, new Date(this.deps.clock()));
      return true;
    });
  }

  /** A dispatch whose failure must not fail the caller (verify, callbacks, the job): logged, retried later. */
  async tryDispatch(sale: SaleRow): Promise<void> {
    try {
      await this.dispatch(sale);
    } catch (err) {
      this.deps.log.warn(
        { err, sale: sale.id },
        'could not create the delivery order of a sale; the sales job retries',
      );
    }
  }
}
