/** One variant of the headline: its platform process, its partners and orders, its measures and CPU accounting. */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SEED_ROWS } from '../../baseline/table.ts';
import { CATALOG_ROWS } from '../../baseline/catalog.ts';
import {
  dropRedisKeys,
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  settlePostgres,
} from '../../lib/backends.ts';
import type { BaselineServer } from '../../lib/baseline.ts';
import { loadCatalogApi } from '../../lib/catalog-data.ts';
import { onCleanup } from '../../lib/cleanup.ts';
import { measureWebhooks } from '../../lib/hook-measures.ts';
import { newSchemaName, otherCores, schemaClient } from '../../lib/instances.ts';
import { LoadGenerator } from '../../lib/load.ts';
import { INSPECT_ARGS, MeasureProfiler } from '../../lib/measure-profiles.ts';
import { DELIVERY, orderBody } from '../../lib/orders.ts';
import {
  type BenchPartner,
  call,
  createPartner,
  topUpWallet,
  WALLET_SCOPES,
} from '../../lib/partner.ts';
import { type BenchServer, machineCpuMs, startServer } from '../../lib/server.ts';
import { round } from '../../lib/stats.ts';
import { measureAll } from './measures.ts';
import { drainOutbox } from './pairs.ts';
import {
  type Drain,
  type PairResult,
  type Settings,
  SHARED_TOPUP_GHS,
  sleep,
  SPREAD_TOPUP_GHS,
  type Variant,
  type VariantResult,
  WALLET_CLIENTS,
} from './spec.ts';

export function platformEnv(v: Variant): {
  env: Record<string, string>;
  schema: string | undefined;
} {
  // The webhook measures send staging events to the bench's loopback receiver; the sandbox courier
  // is off so that the only events are delivery.order.created (and wallet events).
  const common = {
    LOG_LEVEL: v.logLevel,
    WEBHOOK_LOCAL_DESTINATIONS: 'on',
    SANDBOX_COURIER_STEP_SECONDS: '0',
  };
  if (v.db === 'embedded')
    return { env: { ...common, DATABASE_URL: 'memory:' }, schema: undefined };
  const schema = newSchemaName();
  // Registered before the server starts: it creates the schema on boot.
  onCleanup(async () => {
    await dropSchema(schema);
    console.log(`  dropped schema ${schema}`);
  });
  return {
    env: {
      ...common,
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      PGAPPNAME: schema,
      ...(v.redis ? { REDIS_URL } : {}),
    },
    schema,
  };
}

/** One production partner for health, get, create and the shared wallet; 50 more, one wallet each; the catalog; the orders to read. */
async function seedPlatform(
  server: BenchServer,
  schema: string | undefined,
  cleanKey: (keyId: string) => void,
): Promise<{ main: BenchPartner; spread: BenchPartner[]; ids: string[] }> {
  // One production partner for health, get, create and the shared wallet; 50 more, one wallet each.
  const main = await createPartner(server, {
    environment: 'production',
    scopes: [...WALLET_SCOPES, 'safe:read'],
  });
  cleanKey(main.keyId);
  // The catalog catalog.list pages through, the same products as the bare server's.
  await loadCatalogApi(server, CATALOG_ROWS);
  await topUpWallet(server, main, SHARED_TOPUP_GHS);
  const spread: BenchPartner[] = [];
  for (let i = 0; i < WALLET_CLIENTS; i += 10) {
    spread.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, WALLET_CLIENTS - i) }, async () => {
          const p = await createPartner(server, {
            environment: 'production',
            scopes: WALLET_SCOPES,
          });
          cleanKey(p.keyId);
          await topUpWallet(server, p, SPREAD_TOPUP_GHS);
          return p;
        }),
      )),
    );
  }
  // As many orders for orders.get to read as the bare table is seeded with.
  const ids: string[] = [];
  while (ids.length < SEED_ROWS) {
    const n = Math.min(100, SEED_ROWS - ids.length);
    const res = await call<{
      results: Array<{ ok: boolean; order_id: string | null; code?: string }>;
    }>(main, 'POST', `${DELIVERY}/orders.create_bulk`, {
      orders: Array.from({ length: n }, () => orderBody()),
    });
    const failed = res.body.results.find((r) => !r.ok);
    if (failed)
      throw new Error(`orders.create_bulk refused a seed order: ${JSON.stringify(failed)}`);
    ids.push(...res.body.results.map((r) => r.order_id!));
  }
  if (schema) {
    // As autovacuum would on a long-lived database (the bare table is analysed after its seeding too).
    await (await schemaClient(schema)).query(
      'analyze delivery_orders, delivery_order_events, vendors, products, product_variants',
    );
  }
  return { main, spread, ids };
}

/** The CPU other processes used while `run` ran (cores), beside the platform, the bare server and the bench. */
async function accounted<T>(
  server: BenchServer,
  baseline: BaselineServer,
  run: () => Promise<T>,
): Promise<{ value: T; other: number | null }> {
  const machine0 = machineCpuMs();
  const cpu0 = [server.cpuMs(), baseline.cpuMs()];
  const client0 = process.cpuUsage();
  const w0 = performance.now();
  const value = await run();
  const wallMs = performance.now() - w0;
  const machine1 = machineCpuMs();
  const cpu1 = [server.cpuMs(), baseline.cpuMs()];
  const client = process.cpuUsage(client0);
  const servers =
    cpu0.every((c) => c !== undefined) && cpu1.every((c) => c !== undefined)
      ? cpu1[0]! - cpu0[0]! + cpu1[1]! - cpu0[1]!
      : undefined;
  const other =
    machine0 !== undefined && machine1 !== undefined && servers !== undefined
      ? otherCores(machine1 - machine0, servers + (client.user + client.system) / 1000, wallMs)
      : null;
  return { value, other };
}

export async function runVariant(
  v: Variant,
  baseline: BaselineServer,
  cfg: Settings,
): Promise<
  Omit<VariantResult, 'pairs'> & {
    pairs: Array<Omit<PairResult, 'target' | 'targetNote' | 'pass'>>;
  }
> {
  const t0 = performance.now();
  const { env, schema } = platformEnv(v);
  console.log(
    `\n-- ${v.key}: starting the platform (${v.title}${schema ? `, schema ${schema}` : ''})`,
  );
  const server: BenchServer = await startServer(env, cfg.profileDir ? INSPECT_ARGS : []);
  onCleanup(() => server.stop());
  console.log(`  platform pid ${server.pid} on ${server.url}`);
  const profiler = cfg.profileDir
    ? await MeasureProfiler.attach(server, join(cfg.profileDir, 'headline', v.key))
    : undefined;
  if (profiler) onCleanup(async () => profiler.close());
  const cleanKey = (keyId: string) => {
    if (v.redis) onCleanup(async () => void (await dropRedisKeys(keyId)));
  };
  try {
    console.log(`  started in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const webhooks = v.webhooks
      ? await measureWebhooks(server, {
          durationS: cfg.durationS,
          connections: cfg.connections,
          cleanKey,
        })
      : null;
    const s0 = performance.now();
    const { main, spread, ids } = await seedPlatform(server, schema, cleanKey);
    // On PostgreSQL every run, either side's, starts with no vacuum or checkpoint owed to the last.
    const schemas = [schema, baseline.schema].filter((s): s is string => s !== undefined);
    const settleDb = async () => {
      if (schemas.length) await settlePostgres(schemas);
    };
    const settle = async () => {
      const drained = await drainOutbox(server);
      await settleDb();
      return drained;
    };
    await settle();
    console.log(
      `  partners ready (1 + ${WALLET_CLIENTS} wallets topped up through the sandbox checkout), ${ids.length} orders seeded in ${((performance.now() - s0) / 1000).toFixed(1)} s; ${cfg.durationS} s per run`,
    );
    const load = (port: number, connections: number, cpuMs: () => number | undefined) =>
      new LoadGenerator(port, connections, cpuMs, Number.POSITIVE_INFINITY);
    const { value: pairs, other } = await accounted(server, baseline, async () => {
      const baseLoad = load(baseline.port, cfg.connections, baseline.cpuMs);
      const platLoad = load(server.port, cfg.connections, server.cpuMs);
      const walletLoad = load(server.port, WALLET_CLIENTS, server.cpuMs);
      try {
        return await measureAll({
          cfg,
          server,
          baseLoad,
          platLoad,
          walletLoad,
          baseSettle: async (): Promise<Drain> => {
            await sleep(200);
            await settleDb();
            return { pending: 0, ms: 0 };
          },
          settle,
          profiler,
          main,
          spread,
          ids,
        });
      } finally {
        baseLoad.close();
        platLoad.close();
        walletLoad.close();
      }
    });
    return {
      variant: v.key,
      title: `${v.title}${schema ? ` (schema ${schema})` : ''}`,
      baseline: baseline.title,
      pairs,
      webhooks,
      profiles: profiler ? profiler.profiles : null,
      otherCores: other === null ? null : round(other, 2),
      seconds: round((performance.now() - t0) / 1000, 1),
    };
  } catch (err) {
    const tail = server.output().trim();
    if (tail) console.error(`platform output (tail):\n${tail}`);
    const btail = baseline.output().trim();
    if (btail) console.error(`baseline output (tail):\n${btail}`);
    throw err;
  } finally {
    await server.stop();
  }
}
