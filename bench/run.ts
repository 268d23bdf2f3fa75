/**
 * `npm run bench [-- --suite headline|pipeline|delivery|dispatch|location|payouts|wallet|webhooks|catalog|soak|scale|streams|all] [--scenario embedded|postgres|all]
 *   [--duration SECONDS] [--rounds N] [--requests N] [--concurrency N] [--duration-min MINUTES | --minutes MINUTES] [--orders N] [--cpu-prof DIR]`
 *
 * Suites (each prints its tables and writes bench/results/<suite>.json):
 * - headline (default; issue 14): the platform as ratios of a bare Fastify + pg server doing the same
 *   database work (bench/baseline/server.ts), in the same run: signed health / no-op, orders.get / PK
 *   select, orders.create / insert, wallet create on one wallet / on many; on PostgreSQL (plain, with
 *   Redis, at LOG_LEVEL=info) and embedded; plus webhook lag and delivery rate. See bench/README.md.
 * - pipeline: the signed-request pipeline against an unauthenticated baseline.
 * - delivery: orders.create/get/track/estimate against signed health, create_bulk of 100 orders,
 *   and orders.get at 10 thousand vs 1 million orders on PostgreSQL.
 * - wallet: wallet-funded orders.create against recipient-pays create, from 1 and 50 clients.
 * - webhooks: events/s delivered to a local receiver and commit-to-arrival lag (p50/p99), embedded,
 *   PostgreSQL, two dispatchers on one schema (duplicates checked), WEBHOOK_POLL_MS 250 and 20.
 * - catalog: catalog.list/get p50/p99 at 1 thousand and 100 thousand products (PostgreSQL, bulk
 *   loaded), cod orders.create against delivery orders.create at 1 and 16 clients.
 * - dispatch (only when asked; not part of `all`): the time to choose a courier and create the offer
 *   at 100, 1,000 and 10,000 on-duty couriers (p50/p99), and the candidate query's plan.
 * - location (only when asked; not part of `all`): courier position reports ingested per second by
 *   one instance (trail point, bound, throttled location event) at 100, 1,000 and 10,000 couriers on jobs.
 * - payouts (only when asked; not part of `all`): payout runs over 1,000 and --requests payees (default
 *   10,000) on PostgreSQL: creating, paying (instant and 200 ms providers), three runs on one database, RSS.
 * - streams (only when asked; not part of `all`): --requests (default 2,000) tracking-page event streams on
 *   one instance on PostgreSQL: RSS added, fan-out of one NOTIFY to every stream (p50/p99), single changes.
 * - soak (only when asked; not part of `all`): --duration-min minutes (default 10) of mixed traffic
 *   from 20 partners on PostgreSQL + Redis: per-operation req/s and p50/p99, errors, server RSS over
 *   time; then 1 vs 2 instances.
 * - scale (only when asked; PostgreSQL only): 100 partners, 1,000 couriers reporting positions every 5 s
 *   through the courier app, 100,000 pending webhook events; every console and dashboard list p99 and
 *   orders.get/track p99 at 20 connections at 10,000 and --orders (default 1,000,000) orders.
 * `all` runs headline, pipeline, delivery, wallet, webhooks and catalog.
 * Options left out take each suite's own defaults (see the suite files).
 *
 * A benchmark, not a test: it exits 0 when targets are missed and non-zero only when the bench
 * itself failed (server did not start, non-2xx answers, network errors).
 */
import { parseArgs } from 'node:util';
import { runCleanups } from './lib/cleanup.ts';
import { scenarios, type SuiteOptions } from './lib/options.ts';
import { runDelivery } from './suites/delivery.ts';
import { runDispatch } from './suites/dispatch.ts';
import { runLocation } from './suites/location.ts';
import { runHeadline } from './suites/headline.ts';
import { runPipeline } from './suites/pipeline.ts';
import { runPayouts } from './suites/payouts.ts';
import { runWallet } from './suites/wallet.ts';
import { runCatalog } from './suites/catalog.ts';
import { runScale } from './suites/scale.ts';
import { runSoak } from './suites/soak.ts';
import { runWebhooks } from './suites/webhooks.ts';
import { runStreams } from './suites/streams.ts';

const SUITES: Record<string, (opts: SuiteOptions) => Promise<number>> = {
  headline: runHeadline,
  pipeline: runPipeline,
  delivery: runDelivery,
  dispatch: runDispatch,
  location: runLocation,
  payouts: runPayouts,
  wallet: runWallet,
  webhooks: runWebhooks,
  catalog: runCatalog,
  soak: runSoak,
  scale: runScale,
  streams: runStreams,
};
/** Suites that `--suite all` runs (soak takes 10+ minutes: only when asked for). */
const ALL = ['headline', 'pipeline', 'delivery', 'wallet', 'webhooks', 'catalog'];

function options(): { suites: string[]; opts: SuiteOptions } {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string', default: 'headline' },
      scenario: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      requests: { type: 'string' },
      concurrency: { type: 'string' },
      'duration-min': { type: 'string' },
      minutes: { type: 'string' },
      orders: { type: 'string' },
      // Writes a V8 CPU profile of each server into this directory (and summarises it where a suite can).
      'cpu-prof': { type: 'string' },
    },
  });
  const suite = values.suite ?? 'headline';
  const suites = suite === 'all' ? ALL : [suite];
  if (!suites.every((s) => s in SUITES))
    throw new Error(`--suite must be ${Object.keys(SUITES).join(', ')} or all (got "${suite}")`);
  const { scenario, duration, rounds, requests, concurrency } = values;
  scenarios(scenario); // validates --scenario before anything starts
  return {
    suites,
    opts: {
      scenario,
      duration,
      rounds,
      requests,
      concurrency,
      durationMin: values['duration-min'] ?? values.minutes,
      orders: values.orders,
      cpuProf: values['cpu-prof'],
    },
  };
}

async function main(): Promise<number> {
  let chosen: ReturnType<typeof options>;
  try {
    chosen = options();
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  let code = 0;
  for (const suite of chosen.suites) {
    if (chosen.suites.length > 1) console.log(`\n======== suite ${suite} ========`);
    code = Math.max(code, await SUITES[suite]!(chosen.opts));
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  async (err: unknown) => {
    console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
    await runCleanups();
    process.exit(1);
  },
);
