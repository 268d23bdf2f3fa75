/**
 * The soak's couriers and its table sizes (issue 30): couriers on duty reporting positions through
 * the courier app (some holding a job, so that their reports also make trail points and location
 * events), and the growing tables sampled every minute, with each table's growth over the last
 * quarter of the run (the target: ≤ 5%, the table levelled off).
 */
import type pg from 'pg';
import { CourierFleet, describeFleet } from './courier-fleet.ts';
import type { FleetReport } from './courier-fleet-process.ts';
import { seedCouriers } from './scale-seed.ts';
import type { BenchServer } from './server.ts';
import { table } from './stats.ts';
import { GROWING_TABLES, mb, type TableSize, tableSizes } from './table-sizes.ts';

export const SOAK_COURIERS = 1_000;
/** Couriers holding a job: their reports also add trail points and (throttled) location events. */
const ON_JOBS = 100;
const REPORT_EVERY_S = 5;
/** A working courier's pace: from an offer to its acceptance, and between the steps of a job. */
const STEP_MS = 3_000;
const COURIER_COOKIE = 'pp_courier';

/** The last quarter's growth a levelled table may show; for a table that follows the work, its growth per order. */
export const LEVEL_PCT = 5;
/** What the soak samples: the issue's tables, plus dispatch's offers (1,000 couriers on duty are offered the mix's orders). */
export const SOAK_TABLES = [...GROWING_TABLES, 'dispatch_offers'];
/**
 * Tables whose rows are the work itself, kept for days (events and their attempts 30 days, action
 * records 7, offers with their order): at a steady rate of orders no retention can level them
 * within an hour, so each is judged by its bytes per order placed, which must not grow. The others
 * (couriers, the trail of the jobs under way) must level off outright.
 */
export const FOLLOWS_WORK: ReadonlySet<string> = new Set([
  'outbox_events',
  'webhook_attempts',
  'courier_actions',
  'dispatch_offers',
]);

/**
 * `count` couriers on duty with sessions; the first `onJobs` take one of the given production
 * orders each (their dispatch job assigned to them, picked up), as an operator assigning them would.
 */
export async function soakCouriers(
  c: pg.Client,
  count: number,
  onJobs: readonly string[],
  cookieName: string,
) {
  const couriers = await seedCouriers(c, count, cookieName);
  const pairs = onJobs.slice(0, count).map((orderId, k) => [orderId, couriers[k]!.id] as const);
  // Orders whose dispatch job exists (the flow made it at creation) and nobody holds.
  const taken = await c.query(
    `with chosen as (
       select o, cid, k from unnest($1::text[], $2::text[]) with ordinality as u(o, cid, k)
        where exists (select 1 from dispatch_jobs j where j.order_id = o)
          and not exists (select 1 from dispatch_assignments a where a.order_id = o and a.ended_at is null)
     ), jobs as (
       update dispatch_jobs set state = 'assigned', updated_at = now() where order_id in (select o from chosen)
     )
     insert into dispatch_assignments (id, order_id, courier_id, stage, source, started_at, updated_at)
     select 'asg_0SOAK' || lpad(k::text, 21, '0'), o, cid, 'picked_up', 'operator', now(), now() from chosen`,
    [pairs.map(([o]) => o), pairs.map(([, cid]) => cid)],
  );
  return { couriers, onJobs: taken.rowCount ?? 0 };
}

export interface TableSample {
  atS: number;
  /** Orders placed so far (the schema's delivery_orders), the unit of work. */
  orders: number;
  tables: TableSize[];
}

/** Samples the tables every `everyMs` from start() to stop(). */
export class TableSampler {
  readonly samples: TableSample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private t0 = 0;
  private pending: Promise<void> = Promise.resolve();

  /**
   * `vacuum`: a PostgreSQL running with autovacuum off (this machine's) lets dead rows pile up and
   * its planner statistics go stale as no production server does (an hour with only the sampled
   * tables vacuumed: 222,114 dead rows in `dispatch_jobs`, 28 active assignments estimated for
   * 7,371); each sample then first does what autovacuum would do once a minute (its default
   * naptime): vacuum and analyze every table of the schema.
   */
  constructor(
    private readonly c: pg.Client,
    private readonly vacuum: boolean,
    private readonly everyMs = 60_000,
  ) {}

  start(): void {
    this.t0 = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  private sample(): void {
    this.pending = this.pending.then(async () => {
      const atS = Math.round((Date.now() - this.t0) / 1000);
      if (this.vacuum) await vacuumSchema(this.c);
      const tables = await tableSizes(this.c, SOAK_TABLES);
      const { rows } = await this.c.query<{ n: string }>(
        'select count(*) as n from delivery_orders',
      );
      this.samples.push({ atS, orders: Number(rows[0]!.n), tables });
    });
  }

  async stop(): Promise<TableSample[]> {
    clearInterval(this.timer);
    this.sample();
    await this.pending;
    return this.samples;
  }
}

/** VACUUM (ANALYZE) of every table in the connection's schema. */
async function vacuumSchema(c: pg.Client): Promise<void> {
  const { rows } = await c.query<{ name: string }>(
    `select format('%I', relname) as name from pg_class
      where relnamespace = current_schema()::regnamespace and relkind = 'r'`,
  );
  if (rows.length) await c.query(`vacuum (analyze) ${rows.map((r) => r.name).join(', ')}`);
}

export interface Levelling {
  table: string;
  /** `levels`: must stop growing; `per order`: its bytes per order placed must not grow. */
  rule: 'levels' | 'per order';
  start: TableSize;
  quarter: TableSize;
  end: TableSize;
  /** Growth of the table's bytes over the last quarter of the run, in %. */
  lastQuarterPct: number;
  lastQuarterRowsPct: number;
  /** Bytes per order placed over the second and third quarters, then over the last (null: no orders). */
  bytesPerOrder: { before: number; last: number } | null;
  /** The last quarter's bytes per order over the quarters before it, in %. */
  perOrderPct: number | null;
  pass: boolean;
}

const pct = (a: number, b: number) => (a === 0 ? (b === 0 ? 0 : 100) : (b / a - 1) * 100);
const tenth = (x: number) => Math.round(x * 10) / 10;

/**
 * Each table at the start, three quarters in and at the end, and its verdict: a table that must
 * level off passes when its last quarter grew ≤ 5%; one that follows the work, when its bytes per
 * order placed in the last quarter are ≤ 5% above those of the two quarters before (the first
 * quarter is the warm-up: couriers start their first jobs, tables take their first pages).
 */
export function levelling(samples: TableSample[]): Levelling[] {
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const at = (s: number) =>
    samples.reduce((best, x) => (Math.abs(x.atS - s) < Math.abs(best.atS - s) ? x : best));
  const warm = at(last.atS * 0.25);
  const quarter = at(last.atS * 0.75);
  return first.tables.map((t, k) => {
    const w = warm.tables[k]!;
    const q = quarter.tables[k]!;
    const e = last.tables[k]!;
    const rule = FOLLOWS_WORK.has(t.table) ? 'per order' : 'levels';
    const lastQuarterPct = tenth(pct(q.bytes, e.bytes));
    const ordersBefore = quarter.orders - warm.orders;
    const ordersLast = last.orders - quarter.orders;
    const bytesPerOrder =
      ordersBefore > 0 && ordersLast > 0
        ? { before: (q.bytes - w.bytes) / ordersBefore, last: (e.bytes - q.bytes) / ordersLast }
        : null;
    const perOrderPct = bytesPerOrder && tenth(pct(bytesPerOrder.before, bytesPerOrder.last));
    return {
      table: t.table,
      rule,
      start: t,
      quarter: q,
      end: e,
      lastQuarterPct,
      lastQuarterRowsPct: tenth(pct(q.rows, e.rows)),
      bytesPerOrder,
      perOrderPct,
      pass: (rule === 'levels' ? lastQuarterPct : (perOrderPct ?? Infinity)) <= LEVEL_PCT,
    };
  });
}

export function printTables(samples: TableSample[], levels: Levelling[]): void {
  console.log('\ntable sizes each minute (MB with indexes; rows, dead rows):');
  console.log(
    table(
      ['at', 'orders', ...SOAK_TABLES],
      samples.map((s) => [
        `${(s.atS / 60).toFixed(1)} min`,
        String(s.orders),
        ...s.tables.map((t) => `${mb(t.bytes)} (${t.rows}, ${t.deadRows})`),
      ]),
    ),
  );
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x}%`;
  console.log(
    table(
      [
        'table',
        'rule',
        'start MB',
        '¾ MB',
        'end MB',
        'end rows / dead',
        'last quarter',
        'bytes per order (½ → last ¼)',
        'target',
        'verdict',
      ],
      levels.map((l) => [
        l.table,
        l.rule,
        mb(l.start.bytes),
        mb(l.quarter.bytes),
        mb(l.end.bytes),
        `${l.end.rows} / ${l.end.deadRows}`,
        `${signed(l.lastQuarterPct)} (rows ${signed(l.lastQuarterRowsPct)})`,
        l.bytesPerOrder
          ? `${l.bytesPerOrder.before.toFixed(0)} → ${l.bytesPerOrder.last.toFixed(0)} (${signed(l.perOrderPct!)})`
          : 'n/a',
        l.rule === 'levels' ? `≤ ${LEVEL_PCT}%` : `per order ≤ ${LEVEL_PCT}%`,
        l.pass ? 'PASS' : 'MISS',
      ]),
    ),
  );
}

export interface CourierLoadResult {
  couriers: number;
  onJobs: number;
  fleet: FleetReport;
  samples: TableSample[];
  levels: Levelling[];
}

/**
 * 1,000 couriers on duty (100 of them on the given production orders' jobs) reporting every 5 s
 * through the courier app, the others taking the offers they are sent and delivering them (`work`:
 * the database the recipients' texts are read from), and the tables sampled every minute, until stop().
 */
export async function startCourierLoad(
  server: BenchServer,
  c: pg.Client,
  productionOrders: readonly string[],
  work: { databaseUrl: string; schema: string },
): Promise<{ stop(): Promise<CourierLoadResult> }> {
  const { couriers, onJobs } = await soakCouriers(
    c,
    SOAK_COURIERS,
    productionOrders.slice(0, ON_JOBS),
    COURIER_COOKIE,
  );
  const fleet = new CourierFleet({
    port: server.port,
    everyMs: REPORT_EVERY_S * 1000,
    couriers,
    work: { ...work, stepMs: STEP_MS },
  });
  const autovacuum = (await c.query<{ autovacuum: string }>('show autovacuum')).rows[0]!.autovacuum;
  const sampler = new TableSampler(c, autovacuum !== 'on');
  sampler.start();
  console.log(
    `  ${SOAK_COURIERS} couriers on duty (${onJobs} holding a job) report their position every ${REPORT_EVERY_S} s through the courier app; the others take the offers they are sent and deliver them, a step every ${STEP_MS / 1000} s; tables sampled every minute`,
  );
  if (autovacuum !== 'on')
    console.log(
      '  NOTICE: this PostgreSQL runs with autovacuum off: the sampler vacuums and analyzes the schema each minute, as autovacuum would',
    );
  return {
    async stop() {
      const report = await fleet.stop();
      fleet.close();
      const samples = await sampler.stop();
      return {
        couriers: SOAK_COURIERS,
        onJobs,
        fleet: report,
        samples,
        levels: levelling(samples),
      };
    },
  };
}

export function printCourierLoad(r: CourierLoadResult): void {
  console.log(`\n${describeFleet(r.fleet, r.couriers, REPORT_EVERY_S)}; ${r.onJobs} on jobs`);
  const w = r.fleet.work;
  if (w)
    console.log(
      `offers: ${w.offers} heard, ${w.accepted} accepted, ${w.missed} gone before the courier answered; ${w.delivered} delivered; ${w.failed} steps failed${w.firstFailures.length ? ` (e.g. ${w.firstFailures[0]})` : ''}`,
    );
  printTables(r.samples, r.levels);
}
