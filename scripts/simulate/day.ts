import { Random, SimClock } from './clock.ts';
import { SimCourier, type Street } from './courier.ts';
import { SimDispatcher } from './dispatcher.ts';
import { HANDOVER_AT_PESEWAS, handOver, moneyChecks, payoutRun } from './money.ts';
import { dayStart, type SimOptions } from './options.ts';
import { OrderBook, placeOrders } from './orders.ts';
import { type DayReport, dayFigures } from './report.ts';
import type { AppOptions } from '../../src/app.ts';
import { type SimServer, startServer } from './server.ts';
import { cast } from './setup.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The courier sign-in throttle: 20 codes per address per 15 minutes (couriers sign in through one address here). */
const SIGN_INS_PER_WINDOW = 20;
const WINDOW_MS = 16 * MINUTE;

/**
 * One simulated day on the real server: the cast made two days before (destinations out of their
 * cooling), couriers signed in before the start, then orders for `hours`, a drain until every order
 * has ended (or `drainMinutes`), the last cash handovers, the payout run and the money checks.
 */
export async function runDay(
  o: SimOptions,
  out: (line: string) => void,
  app: AppOptions = {},
): Promise<DayReport> {
  const start = dayStart(o);
  const clock = new SimClock(start - 2 * DAY);
  const r = new Random(o.seed);
  const began = performance.now();
  const server = await startServer(clock, o.speed, { keep: o.keep, app });
  out(`server up in ${((performance.now() - began) / 1000).toFixed(1)} s (${server.url})`);
  try {
    return await day(server, o, clock, r, start, out);
  } finally {
    await server.close();
  }
}

async function day(
  server: SimServer,
  o: SimOptions,
  clock: SimClock,
  r: Random,
  start: number,
  out: (line: string) => void,
): Promise<DayReport> {
  const people = await cast(server, o, r, clock);
  const book = new OrderBook();
  const problems: string[] = [];
  const street: Street = {
    server,
    clock,
    options: o,
    book,
    problems,
    afterJob: async (c) => void (await handOver(server, c.id, HANDOVER_AT_PESEWAS)),
  };
  const couriers = people.couriers.map(
    (a, i) => new SimCourier(a, street, new Random(o.seed * 1000 + i)),
  );
  clock.advance(start - Math.ceil(couriers.length / SIGN_INS_PER_WINDOW) * WINDOW_MS - clock.now());
  for (const [i, c] of couriers.entries()) {
    if (i > 0 && i % SIGN_INS_PER_WINDOW === 0) clock.advance(WINDOW_MS);
    await c.signIn();
  }
  clock.advance(Math.max(0, start - clock.now()));
  const wallStart = performance.now();
  clock.run(o.speed);
  out(
    `day starts ${new Date(start).toISOString()}: ${couriers.length} couriers signed in, ${people.partners.length} partners, ${people.vendors.length} vendors`,
  );
  for (const c of couriers) await c.start();
  const stop = new AbortController();
  const dispatcher = new SimDispatcher(server, clock, couriers, problems);
  const watching = o.dispatcher ? dispatcher.watch(stop.signal) : Promise.resolve();
  const progress =
    o.progressMinutes > 0 ? report(server, clock, book, o, stop.signal, out) : Promise.resolve();
  await placeOrders(o, people, book, clock, r, start + o.hours * 60 * MINUTE);
  await drain(server, clock, book, start + (o.hours * 60 + o.drainMinutes) * MINUTE);
  stop.abort();
  await Promise.all([watching, progress]);
  // Together: each courier's end waits for what it has in hand (a ride's next position report).
  await Promise.all(couriers.map((c) => c.end()));
  const onDutyMs = clock.now() - start;
  for (const c of couriers) await handOver(server, c.id);
  const payouts = await payoutRun(server, people.checkerToken);
  const money = await moneyChecks(server, daysBetween(start, clock.now()));
  const figures = await dayFigures(server, book, couriers, onDutyMs);
  return {
    ...figures,
    assignedByHand: dispatcher.assigned,
    takenAway: couriers.reduce((a, c) => a + c.takenAway, 0),
    problems: [...book.problems, ...problems],
    payouts,
    money,
    wallSeconds: (performance.now() - wallStart) / 1000,
  };
}

const TERMINAL = ['delivered', 'returned', 'cancelled', 'failed'];

/** Open orders of the day (placed by the simulation and not yet ended). */
async function openOrders(server: SimServer, book: OrderBook): Promise<number> {
  const rows = await server.app.platform.db.query<{ n: number }>(
    'select count(*)::int as n from delivery_orders where id = any($1) and not (status = any($2))',
    [[...book.byId.keys()], TERMINAL],
  );
  return rows[0]?.n ?? 0;
}

/** Couriers keep working until every order has ended, or until `deadline`. */
async function drain(
  server: SimServer,
  clock: SimClock,
  book: OrderBook,
  deadline: number,
): Promise<void> {
  while (clock.now() < deadline && (await openOrders(server, book)) > 0) await clock.sleep(MINUTE);
}

async function report(
  server: SimServer,
  clock: SimClock,
  book: OrderBook,
  o: SimOptions,
  stop: AbortSignal,
  out: (line: string) => void,
): Promise<void> {
  const start = clock.now();
  while (!stop.aborted) {
    await clock.sleep(o.progressMinutes * MINUTE, stop);
    if (stop.aborted) return;
    const minutes = Math.round((clock.now() - start) / MINUTE);
    out(
      `  +${minutes} min: ${book.byId.size} orders placed, ${await openOrders(server, book)} open`,
    );
  }
}

function daysBetween(from: number, to: number): string[] {
  const days: string[] = [];
  for (let t = from - (from % DAY); t <= to; t += DAY)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
