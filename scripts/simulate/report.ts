import { quantile } from './clock.ts';
import type { SimCourier } from './courier.ts';
import type { MoneyChecks, PayoutOutcome } from './money.ts';
import type { OrderBook } from './orders.ts';
import type { SimOptions } from './options.ts';
import type { SimServer } from './server.ts';

export interface DayReport {
  placed: Record<string, number>;
  delivered: number;
  failedAndReturned: number;
  stuck: string[];
  offers: number;
  /** From an offer being made to its reaching the courier's phone (the event stream). */
  offerOnPhoneP50S: number;
  offerOnPhoneP95S: number;
  /** Offers that never reached a screen: made to a courier whose app showed the job in hand. */
  offersUnseenPct: number;
  offerToAcceptP50S: number;
  offerToAcceptP95S: number;
  /** From an order's first offer to the accept that took it (across offers that expired). */
  orderFirstOfferToAcceptP50S: number;
  orderFirstOfferToAcceptP95S: number;
  offersExpiredPct: number;
  offersDeclinedPct: number;
  /** Multi-drop: batch offers made, and the orders' offers they covered. */
  batches: number;
  batchedOffers: number;
  /** Orders no courier took within DISPATCH_LATE_MINUTES (10) of being placed. */
  latePct: number;
  /** Delivered orders delivered after the time promised to the partner (estimated_delivery). */
  deliveredAfterPromisePct: number;
  deliveriesPerCourierHour: number;
  courierIdlePct: number;
  assignedByHand: number;
  /** Jobs taken from a courier by an operator's assignment that raced the courier's accept. */
  takenAway: number;
  problems: string[];
  payouts: PayoutOutcome;
  money: MoneyChecks;
  wallSeconds: number;
}

const TERMINAL = ['delivered', 'returned', 'cancelled', 'failed'];
const pct = (a: number, b: number) => (b === 0 ? 0 : (100 * a) / b);

type OfferFigures = Pick<
  DayReport,
  | 'offers'
  | 'offerOnPhoneP50S'
  | 'offerOnPhoneP95S'
  | 'offersUnseenPct'
  | 'offerToAcceptP50S'
  | 'offerToAcceptP95S'
  | 'orderFirstOfferToAcceptP50S'
  | 'orderFirstOfferToAcceptP95S'
  | 'offersExpiredPct'
  | 'offersDeclinedPct'
  | 'batches'
  | 'batchedOffers'
>;

/** Dispatch's offers of the day's orders (its own records) against when each reached a phone. */
async function offerFigures(
  s: SimServer,
  ids: string[],
  couriers: readonly SimCourier[],
): Promise<OfferFigures> {
  const offers = await s.app.platform.db.query<{
    order_id: string;
    courier_id: string;
    state: string;
    offered_at: Date;
    answered_at: Date | null;
    batch_id: string | null;
  }>(
    'select order_id, courier_id, state, offered_at, answered_at, batch_id from dispatch_offers where order_id = any($1)',
    [ids],
  );
  const accepted = offers.filter((x) => x.state === 'accepted' && x.answered_at);
  const firstOffer = new Map<string, number>();
  for (const x of offers)
    firstOffer.set(
      x.order_id,
      Math.min(firstOffer.get(x.order_id) ?? Infinity, x.offered_at.getTime()),
    );
  const perOffer = accepted.map((x) => (x.answered_at!.getTime() - x.offered_at.getTime()) / 1000);
  const perOrder = accepted.map(
    (x) => (x.answered_at!.getTime() - firstOffer.get(x.order_id)!) / 1000,
  );
  const byId = new Map(couriers.map((c) => [c.id, c]));
  // A batch reaches the phone as one offer, named by its first drop: each of its jobs is on the
  // screen when any of them is.
  const batchOrders = new Map<string, string[]>();
  for (const x of offers)
    if (x.batch_id)
      batchOrders.set(x.batch_id, [...(batchOrders.get(x.batch_id) ?? []), x.order_id]);
  const onPhone = offers.flatMap((x) => {
    const seenOf = (id: string) => byId.get(x.courier_id)?.offersSeen.get(id);
    const seen = x.batch_id
      ? batchOrders
          .get(x.batch_id)!
          .map(seenOf)
          .find((t) => t !== undefined)
      : seenOf(x.order_id);
    return seen === undefined ? [] : [(seen - x.offered_at.getTime()) / 1000];
  });
  return {
    offers: offers.length,
    offerOnPhoneP50S: quantile(onPhone, 0.5),
    offerOnPhoneP95S: quantile(onPhone, 0.95),
    offersUnseenPct: pct(offers.length - onPhone.length, offers.length),
    offerToAcceptP50S: quantile(perOffer, 0.5),
    offerToAcceptP95S: quantile(perOffer, 0.95),
    orderFirstOfferToAcceptP50S: quantile(perOrder, 0.5),
    orderFirstOfferToAcceptP95S: quantile(perOrder, 0.95),
    offersExpiredPct: pct(offers.filter((x) => x.state === 'expired').length, offers.length),
    offersDeclinedPct: pct(offers.filter((x) => x.state === 'declined').length, offers.length),
    batches: batchOrders.size,
    batchedOffers: offers.filter((x) => x.batch_id).length,
  };
}

/** The day's figures: dispatch's own records (offers, orders) and what the couriers lived through. */
export async function dayFigures(
  s: SimServer,
  book: OrderBook,
  couriers: readonly SimCourier[],
  onDutyMs: number,
): Promise<
  Omit<DayReport, 'assignedByHand' | 'takenAway' | 'problems' | 'payouts' | 'money' | 'wallSeconds'>
> {
  const ids = [...book.byId.keys()];
  const orders = await s.app.platform.db.query<{
    id: string;
    status: string;
    estimated_delivery: Date;
  }>('select id, status, estimated_delivery from delivery_orders where id = any($1)', [ids]);
  const sim = [...book.byId.values()];
  const late = sim.filter((o) => (o.acceptedAt ?? Infinity) - o.placedAt > 10 * 60_000).length;
  const promised = new Map(orders.map((o) => [o.id, o.estimated_delivery.getTime()]));
  const delivered = sim.filter((o) => o.deliveredAt !== undefined);
  const afterPromise = delivered.filter(
    (o) => o.deliveredAt! > (promised.get(o.orderId) ?? Infinity),
  );
  const placed: Record<string, number> = { delivery: 0, cod: 0, prepaid: 0 };
  for (const o of sim) placed[o.kind] = (placed[o.kind] ?? 0) + 1;
  const courierMs = couriers.length * onDutyMs;
  const busy = couriers.reduce((a, c) => a + c.busyMs, 0);
  return {
    placed,
    delivered: orders.filter((o) => o.status === 'delivered').length,
    failedAndReturned: orders.filter((o) => o.status === 'returned' || o.status === 'failed')
      .length,
    stuck: orders.filter((o) => !TERMINAL.includes(o.status)).map((o) => `${o.id} (${o.status})`),
    ...(await offerFigures(s, ids, couriers)),
    latePct: pct(late, sim.length),
    deliveredAfterPromisePct: pct(afterPromise.length, delivered.length),
    deliveriesPerCourierHour: delivered.length / (courierMs / 3_600_000),
    courierIdlePct: 100 - pct(busy, courierMs),
  };
}

/** Whether the day failed: a money check off, or an order not terminal after the drain. */
export function failures(r: DayReport): string[] {
  const m = r.money;
  return [
    r.stuck.length > 0 && `${r.stuck.length} orders stuck: ${r.stuck.slice(0, 5).join(', ')}`,
    m.trialBalancePesewas !== 0 && `trial balance is ${m.trialBalancePesewas} pesewas, not 0`,
    m.unbalancedJournals > 0 && `${m.unbalancedJournals} unbalanced journals`,
    m.payablesUnpaidPesewas !== 0 && `${m.payablesUnpaidPesewas} pesewas of payables unpaid`,
    m.paidForUndelivered > 0 && `${m.paidForUndelivered} payout lines for undelivered sales`,
    m.courierCashHeldPesewas !== 0 && `couriers still hold ${m.courierCashHeldPesewas} pesewas`,
    m.reconciliationDifferences > 0 && `${m.reconciliationDifferences} reconciliation differences`,
    r.payouts.unpaid > 0 && `${r.payouts.unpaid} payouts not paid`,
  ].filter((x): x is string => typeof x === 'string');
}

const f1 = (n: number) => (Number.isNaN(n) ? 'n/a' : n.toFixed(1));
const ghs = (p: number) => `GHS ${(p / 100).toFixed(2)}`;

/** The printed summary. */
export function printReport(o: SimOptions, r: DayReport, out: (line: string) => void): void {
  const m = r.money;
  const placed = Object.values(r.placed).reduce((a, b) => a + b, 0);
  out(
    `simulated day: ${o.couriers} couriers, ${o.ordersPerHour} orders/h for ${o.hours} h at ${o.speed}x (${r.wallSeconds.toFixed(0)} s wall)`,
  );
  out(
    `  orders placed            ${placed} (delivery ${r.placed.delivery}, cod ${r.placed.cod}, prepaid ${r.placed.prepaid})`,
  );
  out(`  delivered / returned     ${r.delivered} / ${r.failedAndReturned}`);
  out(
    `  offered → accepted       p50 ${f1(r.offerToAcceptP50S)} s, p95 ${f1(r.offerToAcceptP95S)} s (per accepted offer)`,
  );
  out(
    `  first offer → accepted   p50 ${f1(r.orderFirstOfferToAcceptP50S)} s, p95 ${f1(r.orderFirstOfferToAcceptP95S)} s (per order)`,
  );
  out(
    `  offer on the phone       p50 ${f1(r.offerOnPhoneP50S)} s, p95 ${f1(r.offerOnPhoneP95S)} s after it was made`,
  );
  out(
    `  offers                   ${r.offers}: expired ${f1(r.offersExpiredPct)} %, declined ${f1(r.offersDeclinedPct)} %, never on a screen ${f1(r.offersUnseenPct)} %`,
  );
  out(`  multi-drop batches       ${r.batches}, covering ${r.batchedOffers} of the offers`);
  out(
    `  late (no courier 10 min) ${f1(r.latePct)} %; delivered after the promised time ${f1(r.deliveredAfterPromisePct)} %`,
  );
  out(
    `  deliveries/courier-hour  ${r.deliveriesPerCourierHour.toFixed(2)}; courier idle ${f1(r.courierIdlePct)} %`,
  );
  out(
    `  assigned by hand         ${r.assignedByHand} (${r.takenAway} of them taken from a courier who had just accepted)`,
  );
  out(`  stuck orders             ${r.stuck.length}`);
  out(
    `  payouts                  ${r.payouts.payouts} (${r.payouts.approved} approved by a second operator), paid ${r.payouts.paid}, ${ghs(r.payouts.paidPesewas)}`,
  );
  out('  money checks');
  out(
    `    books balanced         ${m.trialBalancePesewas === 0 && m.unbalancedJournals === 0 ? 'yes' : 'NO'} (trial balance ${m.trialBalancePesewas}, unbalanced journals ${m.unbalancedJournals})`,
  );
  out(
    `    payables paid          ${m.payablesUnpaidPesewas === 0 && r.payouts.unpaid === 0 ? 'yes' : 'NO'} (unpaid ${ghs(m.payablesUnpaidPesewas)}, payouts unpaid ${r.payouts.unpaid}; under the payout minimum, carried over: ${ghs(m.payablesCarriedPesewas)})`,
  );
  out(
    `    undelivered sales paid ${m.paidForUndelivered === 0 ? 'none' : `${m.paidForUndelivered} (NO)`}`,
  );
  out(
    `    couriers' cash         ${m.courierCashHeldPesewas === 0 ? 'all handed over' : `${ghs(m.courierCashHeldPesewas)} still held (NO)`}; reconciliation differences ${m.reconciliationDifferences}`,
  );
  if (r.problems.length)
    out(`  problems (${r.problems.length}): ${r.problems.slice(0, 8).join(' | ')}`);
}
