/**
 * Suite `streams` (issue 28, the realtime channel): one server instance on PostgreSQL holding
 * --requests event streams (default 2,000), each a recipient's tracking page on an order of its own
 * (`GET /track/{token}/events`). Measures the server's RSS before and with the streams open, then
 * the fan-out: every order's status changed in one statement and one NOTIFY, the time until each
 * stream has its event (p50/p99/max), and single changes (one order among all watched) the same way.
 * Targets: ≤ 100 MB more RSS with the streams open, fan-out p99 ≤ 500 ms.
 */
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_URL, dropSchema, reachableScenarios } from '../lib/backends.ts';
import { positive, writeResults, type SuiteOptions } from '../lib/options.ts';
import { orderBody, DELIVERY } from '../lib/orders.ts';
import { call, createPartner } from '../lib/partner.ts';
import { percentile, round, table } from '../lib/stats.ts';
import { startServer } from '../lib/server.ts';

const MB = 1024 * 1024;
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

interface Viewer {
  orderId: string;
  /** When each status was first seen on this stream (performance.now()). */
  seen: Map<string, number>;
  onEvent?: () => void;
  response?: IncomingMessage;
}

/** Opens one tracking stream and records each status it is told, as it arrives. */
function watch(base: string, token: string, viewer: Viewer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/track/${token}/events`,
      { agent: false, headers: { accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        viewer.response = res;
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
            const data = buffer
              .slice(0, cut)
              .split('\n')
              .find((l) => l.startsWith('data: '));
            buffer = buffer.slice(cut + 2);
            if (!data) continue;
            const status = (JSON.parse(data.slice(6)) as { status: string }).status;
            if (!viewer.seen.has(status)) viewer.seen.set(status, performance.now());
            viewer.onEvent?.();
            resolve();
          }
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const until = (check: () => boolean, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    const started = Date.now();
    const tick = () =>
      check()
        ? resolve(true)
        : Date.now() - started > timeoutMs
          ? resolve(false)
          : setTimeout(tick, 5);
    tick();
  });

export async function runStreams(opts: SuiteOptions): Promise<number> {
  if (!(await reachableScenarios(['postgres'])).length) {
    console.log(
      'streams: PostgreSQL is not reachable; the suite needs it (NOTIFY across the server and the bench)',
    );
    return 0;
  }
  const n = positive('--requests', opts.requests, 2_000);
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const server = await startServer({
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    DISPATCH_INTERVAL_MS: '0',
    SANDBOX_COURIER_STEP_SECONDS: '0',
    WEBHOOK_DISPATCHER: 'off',
  });
  const db = new pg.Client({ connectionString: POSTGRES_URL });
  await db.connect();
  const viewers: Viewer[] = [];
  try {
    const partner = await createPartner(server, {
      environment: 'staging',
      scopes: ['delivery:read', 'delivery:write'],
    });
    for (let made = 0; made < n; ) {
      const batch = Math.min(50, n - made);
      await Promise.all(
        Array.from({ length: batch }, () =>
          call(partner, 'POST', `${DELIVERY}/orders.create`, orderBody()),
        ),
      );
      made += batch;
    }
    await db.query(`set search_path to ${schema}`);
    const orders = (
      await db.query<{ id: string; tracking_token: string }>(
        'select id, tracking_token from delivery_orders order by id',
      )
    ).rows;
    const idle = rssOf(server.pid);

    const opened = performance.now();
    for (let i = 0; i < orders.length; i += 100) {
      await Promise.all(
        orders.slice(i, i + 100).map((o) => {
          const viewer: Viewer = { orderId: o.id, seen: new Map() };
          viewers.push(viewer);
          return watch(server.url, o.tracking_token, viewer);
        }),
      );
    }
    const openSeconds = (performance.now() - opened) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const withStreams = rssOf(server.pid);

    // Fan-out: every watched order moves at once; one NOTIFY wakes the instance's streams.
    await db.query(
      `update delivery_orders set status = 'accepted', version = version + 1 where id = any($1)`,
      [orders.map((o) => o.id)],
    );
    const t0 = performance.now();
    await db.query('select pg_notify($1, $2)', [`delivery_tracking_${schema}`, '']);
    const all = await until(() => viewers.every((v) => v.seen.has('accepted')), 30_000);
    const fanout = viewers
      .filter((v) => v.seen.has('accepted'))
      .map((v) => v.seen.get('accepted')! - t0);

    // Single changes: one order among all those watched.
    const single: number[] = [];
    for (let i = 0; i < 20; i++) {
      const v = viewers[Math.floor((i * viewers.length) / 20)]!;
      await db.query(
        `update delivery_orders set status = 'pickedUp', version = version + 1 where id = $1`,
        [v.orderId],
      );
      const t = performance.now();
      await db.query('select pg_notify($1, $2)', [`delivery_tracking_${schema}`, '']);
      await until(() => v.seen.has('pickedUp'), 10_000);
      single.push((v.seen.get('pickedUp') ?? Number.POSITIVE_INFINITY) - t);
    }
    const peak = rssOf(server.pid);

    const delta = (withStreams - idle) / MB;
    const p99 = percentile(fanout, 99);
    console.log(
      `streams, postgres: ${viewers.length} tracking streams on one instance (opened in ${round(openSeconds, 1)} s)`,
    );
    console.log(
      table(
        ['measure', 'value', 'target', 'verdict'],
        [
          ['RSS before streams (MB)', String(round(idle / MB, 0)), '', ''],
          ['RSS with streams open (MB)', String(round(withStreams / MB, 0)), '', ''],
          ['RSS added (MB)', String(round(delta, 1)), '≤ 100', delta <= 100 ? 'OK' : 'MISS'],
          ['RSS after the changes (MB)', String(round(peak / MB, 0)), '', ''],
          [
            `fan-out to all ${viewers.length}, p50 (ms)`,
            String(round(percentile(fanout, 50), 0)),
            '',
            '',
          ],
          [
            `fan-out to all ${viewers.length}, p99 (ms)`,
            String(round(p99, 0)),
            '≤ 500',
            all && p99 <= 500 ? 'OK' : 'MISS',
          ],
          [
            `fan-out to all ${viewers.length}, max (ms)`,
            String(round(Math.max(...fanout), 0)),
            '',
            '',
          ],
          ['one order changed, p50 (ms)', String(round(percentile(single, 50), 0)), '', ''],
          ['one order changed, p99 (ms)', String(round(percentile(single, 99), 0)), '', ''],
        ],
      ),
    );
    const results = {
      streams: viewers.length,
      openSeconds,
      rssIdleMb: idle / MB,
      rssStreamsMb: withStreams / MB,
      rssAddedMb: delta,
      fanoutMs: {
        p50: percentile(fanout, 50),
        p99,
        max: Math.max(...fanout),
        reached: fanout.length,
      },
      singleMs: { p50: percentile(single, 50), p99: percentile(single, 99) },
    };
    console.log(`results: ${writeResults('streams', false, results)}`);
    return 0;
  } finally {
    for (const v of viewers) v.response?.destroy();
    await db.end();
    await server.stop();
    await dropSchema(schema);
  }
}
