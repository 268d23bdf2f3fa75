import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../../platform/auth/context.ts';
import type { Db } from '../../../platform/db/index.ts';
import { isAppError } from '../../../platform/errors.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import type { CreateOrderInput } from '../../delivery/orders/schema.ts';
import { catalogRepository } from '../products/repository.ts';
import type { VendorRow } from '../products/repository.ts';
import type { DeliveryQuoter } from './quote.ts';
import { salesRepository as repo, type SaleItemRow, type SaleRow } from './repository.ts';

/** The delivery service as the catalog uses it: OrdersService.create, present when this instance serves delivery. */
export interface DeliveryPort {
  create(auth: AuthContext, input: CreateOrderInput): Promise<{ id: string }>;
}

/** A dispatch claim older than this is presumed abandoned (its instance died) and taken over. */
const CLAIM_TIMEOUT_MS = 60_000;

const ghs = (pesewas: number) => pesewasToGhs(pesewas).toFixed(2);

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The delivery order's reference: derived from the sale, so a retried dispatch finds its order instead of making a second one. */
export const deliveryReference = (sale: SaleRow) => `safe-${sale.id}`;

/**
 * The delivery order of a sale: from the vendor's pickup point to the buyer, recipient-pays so
 * the wallet is never touched (D8). Its `payment.amount` is the delivery fee only (when the
 * buyer gave no coordinates it is the fee, quoted from the same formula; with coordinates the
 * delivery service prices the same points to the same fee). What the rider collects is said in
 * `special_instructions`: the sale total for cash on delivery, nothing for a prepaid sale.
 */
export function deliveryInput(sale: SaleRow, vendor: VendorRow, items: readonly SaleItemRow[], place: { region: string; city: string }): CreateOrderInput {
  const collect =
    sale.payment_method === 'cod'
      ? `Cash on delivery: collect GHS ${ghs(sale.total_pesewas)} from the buyer (goods GHS ${ghs(sale.subtotal_pesewas)} + delivery GHS ${ghs(sale.delivery_fee_pesewas)}).`
      : 'Prepaid order: collect nothing from the buyer.';
  return {
    order_reference: deliveryReference(sale),
    customer: { name: sale.buyer_name, phone: sale.buyer_phone },
    delivery: {
      address: sale.delivery_address,
      city: place.city,
      region: place.region,
      ...(sale.delivery_lat !== null && sale.delivery_lng !== null ? { coordinates: { lat: sale.delivery_lat, lng: sale.delivery_lng } } : {}),
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

/**
 * Creates sales' delivery orders. Only one actor creates a given sale's order (the claim), and
 * one interrupted after creating it links the existing order on the next attempt.
 */
export class Dispatcher {
  constructor(
    private readonly deps: { db: Db; clock: () => number; log: FastifyBaseLogger; delivery: DeliveryPort | undefined; quoter: DeliveryQuoter },
  ) {}

  get available(): boolean {
    return this.deps.delivery !== undefined;
  }

  /** Creates and links the delivery order; false when another actor holds the claim or delivery is not served here. */
  async dispatch(sale: SaleRow): Promise<boolean> {
    const { db, delivery } = this.deps;
    if (!delivery) return false;
    const now = new Date(this.deps.clock());
    if (!(await repo.claimDispatch(db, sale.id, now, new Date(now.getTime() - CLAIM_TIMEOUT_MS)))) return false;
    try {
      const vendor = (await catalogRepository.getVendor(db, sale.vendor_id))!;
      const input = deliveryInput(sale, vendor, await repo.items(db, sale.id), await this.deps.quoter.describe({ lat: sale.quote_lat, lng: sale.quote_lng }));
      const owner = { appId: sale.app_id, environment: sale.environment };
      // The order belongs to the sale's app and environment, whoever triggers the dispatch (a callback has no key).
      const auth: AuthContext = { keyId: 'safe-catalog', appId: sale.app_id, partnerId: sale.partner_id, environment: sale.environment, scopes: [] };
      let orderId: string;
      try {
        orderId = (await delivery.create(auth, input)).id;
      } catch (err) {
        const existing = isAppError(err) && err.code === 'DUPLICATE_ORDER_REFERENCE' ? await repo.deliveryOrderByReference(db, owner, input.order_reference) : undefined;
        if (!existing) throw err;
        orderId = existing;
      }
      await repo.linkDelivery(db, sale.id, orderId, new Date(this.deps.clock()));
      return true;
    } catch (err) {
      await repo.unclaimDispatch(db, sale.id);
      throw err;
    }
  }

  /** A dispatch whose failure must not fail the caller (verify, callbacks, the job): logged, retried later. */
  async tryDispatch(sale: SaleRow): Promise<void> {
    try {
      await this.dispatch(sale);
    } catch (err) {
      this.deps.log.warn({ err, sale: sale.id }, 'could not create the delivery order of a sale; the sales job retries');
    }
  }
}
