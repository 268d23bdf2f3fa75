// Tests read couriers, the dispatch board and buyer refunds as operators see them (the operator
// API), not with SQL on their tables.
import type { TestPlatform } from './harness.ts';

type Operator = Pick<TestPlatform, 'admin'>;

async function read(p: Operator, path: string): Promise<any> {
  const res = await p.admin('GET', path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  return res.body;
}

/** Every courier account's id (GET /couriers, page after page). */
export async function courierIds(p: Operator): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const page: any = await read(p, `/couriers?limit=200${after ? `&after=${after}` : ''}`);
    ids.push(...page.couriers.map((c: any) => c.courier_id as string));
    after = page.next_after;
  } while (after);
  return ids;
}

/** The dispatch board's lines for one order (GET /dispatch/board). */
export async function boardLines(p: Operator, orderId: string): Promise<any[]> {
  return (await read(p, '/dispatch/board')).data.filter((e: any) => e.order_id === orderId);
}

/** A sale's buyer refund as finance reads it (GET /refunds, page after page); undefined when none. */
export async function refundOf(p: Operator, saleId: string): Promise<any> {
  let before: string | null = null;
  do {
    const page: any = await read(p, `/refunds?limit=200${before ? `&before=${before}` : ''}`);
    const found = page.refunds.find((r: any) => r.sale_id === saleId);
    if (found) return found;
    before = page.next_before;
  } while (before);
  return undefined;
}
