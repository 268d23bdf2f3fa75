import type { LatLng } from '../../src/shared/ghana/index.ts';
import type { Random, SimClock } from './clock.ts';
import type { SimOptions } from './options.ts';
import type { Cast, SimPartner, SimVendor } from './setup.ts';
import { around, simPhone } from './world.ts';

export type OrderKind = 'delivery' | 'cod' | 'prepaid';

/** One order of the day as the simulation knows it (the recipient's phone, where the door is). */
export interface SimOrder {
  orderId: string;
  kind: OrderKind;
  saleId?: string;
  pickup: LatLng;
  dropoff: LatLng;
  recipientPhone: string;
  placedAt: number;
  /** The recipient will not be there (each attempt fails; the goods go back). */
  fails: boolean;
  acceptedAt?: number;
  deliveredAt?: number;
}

/** The day's orders by delivery order id, filled as partners place them. */
export class OrderBook {
  readonly byId = new Map<string, SimOrder>();
  readonly problems: string[] = [];
  /** Placements under way (a prepaid sale waits for its checkout). */
  readonly placing = new Set<Promise<void>>();

  /** The order, once its placement has answered (an offer can reach a courier first); waits up to 30 s of wall time. */
  async get(orderId: string): Promise<SimOrder | undefined> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = this.byId.get(orderId);
      if (found || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

type Sent = { status: number; body: any };

/**
 * A signed request, signed again when refused as stale: at 120x, 2.5 s of wall time on a loaded
 * machine is the 5 simulated minutes the timestamp check allows, and the refusal comes before
 * anything is written, so signing again is what a partner's client told "sign again" does.
 */
async function signed(
  p: SimPartner,
  method: string,
  path: string,
  opts: { body?: unknown; query?: Record<string, string> },
): Promise<Sent> {
  for (let attempt = 1; ; attempt++) {
    const res = (await p.client.send(method, path, opts)) as Sent;
    if (res.status !== 401 || res.body?.code !== 'STALE_REQUEST' || attempt >= 5) return res;
  }
}

/** Partners place orders as a Poisson process of `ordersPerHour` until `until`. */
export async function placeOrders(
  o: SimOptions,
  people: Cast,
  book: OrderBook,
  clock: SimClock,
  r: Random,
  until: number,
): Promise<void> {
  const meanGap = 3_600_000 / o.ordersPerHour;
  for (;;) {
    await clock.sleep(r.exponential(meanGap));
    if (clock.now() >= until) break;
    const roll = r.next();
    const kind: OrderKind =
      roll < o.codShare ? 'cod' : roll < o.codShare + o.prepaidShare ? 'prepaid' : 'delivery';
    const fails = r.chance(o.failRate);
    const partner = r.pick(people.partners);
    const work = (
      kind === 'delivery'
        ? deliveryOrder(partner, r, clock, fails)
        : sale(partner, r.pick(people.vendors), kind, r, clock, fails)
    )
      .then((order) => void book.byId.set(order.orderId, order))
      .catch((err: Error) => void book.problems.push(`${kind}: ${err.message}`));
    book.placing.add(work);
    void work.finally(() => book.placing.delete(work));
  }
  await Promise.all([...book.placing]);
}

function ok(res: Sent, what: string): any {
  if (res.status >= 300)
    throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return res.body.data;
}

/** A recipient-pays delivery order from the partner's shop, through the SDK (signed). */
async function deliveryOrder(
  p: SimPartner,
  r: Random,
  clock: SimClock,
  fails: boolean,
): Promise<SimOrder> {
  const pickup = around(r, p.shop, 0, 0.3);
  const dropoff = around(r, pickup, 0.5, 4);
  const phone = simPhone('024', 55);
  const placedAt = clock.now();
  const res = await signed(p, 'POST', '/api/v1/delivery/orders.create', {
    body: {
      order_reference: `sim-${crypto.randomUUID()}`,
      customer: { name: 'Ama Mensah', phone },
      delivery: {
        address: '12 Oxford Street',
        city: 'Accra',
        region: 'Greater Accra',
        coordinates: dropoff,
      },
      item: 'A parcel',
      pickup: {
        contact_person: 'Kofi Boateng',
        contact_phone: '0201234567',
        address: 'The shop',
        coordinates: pickup,
      },
    },
  });
  const data = ok(res as Sent, 'delivery orders.create');
  return {
    orderId: data.order_details.order_id,
    kind: 'delivery',
    pickup,
    dropoff,
    recipientPhone: phone,
    placedAt,
    fails,
  };
}

/** A cash-on-delivery or prepaid sale of one of the vendor's products; a prepaid one is paid on the sandbox checkout. */
async function sale(
  p: SimPartner,
  v: SimVendor,
  kind: 'cod' | 'prepaid',
  r: Random,
  clock: SimClock,
  fails: boolean,
): Promise<SimOrder> {
  const dropoff = around(r, v.pickup, 0.5, 4);
  const phone = simPhone('024', 66);
  const placedAt = clock.now();
  const variant = r.pick(v.variants);
  const placed = ok(
    (await signed(p, 'POST', '/api/v1/safe-catalog/orders.create', {
      body: {
        payment_method: kind === 'cod' ? 'cod' : 'online',
        vendor_id: v.id,
        items: [{ product_id: v.productId, variant_id: variant.id, quantity: 1 }],
        buyer: { name: 'Yaw Owusu', phone },
        delivery: { address: '5 Ring Road, Accra', lat: dropoff.lat, lng: dropoff.lng },
        external_reference: `sim-${crypto.randomUUID()}`,
        ...(kind === 'prepaid' ? { reseller_markup_ghs: 5 } : {}),
      },
    })) as Sent,
    'safe-catalog orders.create',
  );
  if (kind === 'prepaid') {
    const paid = await fetch(`${placed.checkout_url}/pay`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    if (paid.status !== 200) throw new Error(`sandbox checkout: ${paid.status}`);
    await paid.body?.cancel();
    ok(
      (await signed(p, 'POST', '/api/v1/safe-catalog/orders.verify', {
        body: { sale_id: placed.sale_id },
      })) as Sent,
      'verify',
    );
  }
  const got = ok(
    (await signed(p, 'GET', '/api/v1/safe-catalog/orders.get', {
      query: { sale_id: placed.sale_id },
    })) as Sent,
    'safe-catalog orders.get',
  );
  const orderId = got.delivery?.order_id as string | undefined;
  if (!orderId) throw new Error(`sale ${placed.sale_id} has no delivery order (${got.state})`);
  return {
    orderId,
    kind,
    saleId: placed.sale_id,
    pickup: v.pickup,
    dropoff,
    recipientPhone: phone,
    placedAt,
    fails,
  };
}
