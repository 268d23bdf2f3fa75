// Tests read delivery orders and sales as their owners show them: the partner API first, else the
// delivery and catalog modules' faces (for what the API does not show), not SQL on their tables.
import type { OperatorSale } from '../../src/modules/catalog/index.ts';
import type { DeliveryOrder } from '../../src/modules/delivery/index.ts';
import { ghsToPesewas } from '../../src/platform/money.ts';
import type { PartnerSetup, TestPlatform } from './harness.ts';

type Owner = Pick<PartnerSetup, 'client'>;

function pesewas(ghs: unknown, what: string): number {
  const amount = typeof ghs === 'number' ? ghsToPesewas(ghs) : null;
  if (amount === null) throw new Error(`${what}: no amount in GHS (${JSON.stringify(ghs)})`);
  return amount;
}

/** orders.get's `data`: a delivery order as the partner that placed it reads it. */
export async function orderOf(s: Owner, orderId: string): Promise<any> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
    body: { order_id: orderId },
  });
  if (res.status !== 200)
    throw new Error(`orders.get answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A delivery order's fee in pesewas: orders.get's `order_info.amount` (GHS). */
export async function orderFee(s: Owner, orderId: string): Promise<number> {
  return pesewas((await orderOf(s, orderId)).order_info.amount, `the fee of ${orderId}`);
}

/** A sale's total in pesewas: safe-catalog orders.get's `total_ghs`. */
export async function saleTotal(s: Owner, saleId: string): Promise<number> {
  const res = await s.client.send<any>('GET', '/api/v1/safe-catalog/orders.get', {
    query: { sale_id: saleId },
  });
  if (res.status !== 200)
    throw new Error(`orders.get answered ${res.status}: ${JSON.stringify(res.body)}`);
  return pesewas(res.body.data.total_ghs, `the total of ${saleId}`);
}

/** A delivery order as the delivery module's face finds it, whoever owns it (fields orders.get does not show). */
export async function storedOrder(
  p: Pick<TestPlatform, 'app'>,
  orderId: string,
): Promise<DeliveryOrder> {
  const order = await p.app.platform.delivery!.orders.find(orderId);
  if (!order) throw new Error(`no delivery order ${orderId}`);
  return order;
}

/** A sale as operators see it through the catalog module's face (fields orders.get does not show). */
export async function saleOf(
  p: Pick<TestPlatform, 'app'>,
  saleId: string,
): Promise<OperatorSale['sale']> {
  const found = await p.app.platform.catalog!.operatorSales.get(saleId);
  if (!found) throw new Error(`no sale ${saleId}`);
  return found.sale;
}

/** The reference the gateway saw for a sale's payment (its checkout's client reference). */
export async function clientReferenceOf(
  p: Pick<TestPlatform, 'app'>,
  saleId: string,
): Promise<string> {
  const reference = (await p.app.platform.catalog!.operatorSales.references([saleId])).get(saleId);
  if (!reference) throw new Error(`no client reference for ${saleId}`);
  return reference;
}

/**
 * Every delivery order whose reference starts with `prefix` (case as given), whoever owns it, as
 * operators list them: the delivery module's operator orders, page after page, newest first.
 */
export async function ordersByReference(
  p: Pick<TestPlatform, 'app'>,
  prefix: string,
): Promise<DeliveryOrder[]> {
  const found: DeliveryOrder[] = [];
  let afterId: string | undefined;
  do {
    const page = await p.app.platform.delivery!.operatorOrders.list({ reference: prefix, afterId });
    found.push(...page.orders);
    afterId = page.nextAfter;
  } while (afterId);
  return found.filter((o) => o.order_reference.startsWith(prefix));
}
