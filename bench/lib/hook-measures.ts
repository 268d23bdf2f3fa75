/**
 * The headline's two webhook measures, on a running platform with its dispatcher on (the default)
 * and WEBHOOK_LOCAL_DESTINATIONS=on, against a local receiver that answers 204 at once:
 *
 * - lag without a backlog: single orders.create at TRICKLE_PER_S; for each order, the time from
 *   the bench receiving the create's response to the receiver getting the event's first attempt
 *   (the commit is before the response, so this slightly understates commit → attempt), and, for
 *   reference, from the payload's created_at (stamped as the order transaction starts, so it
 *   slightly overstates it). Target: p99 < 100 ms.
 * - deliveries/s to one endpoint against the rate orders are created: closed-loop orders.create
 *   from the headline's connections for the run duration; created/s = orders ÷ the creation
 *   window, delivered/s = the same orders ÷ (last arrival − first arrival). A dispatcher that
 *   keeps up delivers over a span as long as the creation window, give or take one poll interval
 *   at each end (it claims on a timer), so the verdict allows one WEBHOOK_POLL_MS of slack.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { onCleanup } from './cleanup.ts';
import { expectedRate, LoadGenerator, signedRoute } from './load.ts';
import { checkFailures } from './multi.ts';
import { DELIVERY, orderBody } from './orders.ts';
import { call, createPartner } from './partner.ts';
import { HookReceiver, wallNow, type Arrival } from './receiver.ts';
import { admin, type BenchServer } from './server.ts';
import { percentile, round } from './stats.ts';

/** The platform's default WEBHOOK_POLL_MS (src/modules/webhooks/settings.ts); the bench does not change it. */
export const PLATFORM_POLL_MS = 250;
export const LAG_TARGET_MS = 100;
const TRICKLE_PER_S = 10;
const STALL_MS = 30_000;

export interface WebhookFigures {
  trickle: {
    orders: number;
    perSecond: number;
    fromResponseMs: { p50: number; p99: number; max: number; min: number };
    fromCreatedAtMs: { p50: number; p99: number; max: number };
    targetP99Ms: number;
    pass: boolean;
  };
  throughput: {
    connections: number;
    created: number;
    createdPerS: number;
    delivered: number;
    deliveredPerS: number;
    ratio: number;
    /** The least ratio that still keeps up, given one poll interval of slack. */
    slackRatio: number;
    /** Last arrival − end of creation. */
    tailMs: number;
    pass: boolean;
  };
}

/** Distinct orders whose event has arrived on `path`, first arrival each. */
function firstArrivals(rx: HookReceiver, path: string): Map<string, Arrival> {
  const first = new Map<string, Arrival>();
  for (const a of rx.on(path)) if (a.orderId && !first.has(a.orderId)) first.set(a.orderId, a);
  return first;
}

/** Waits until `done()` or nothing new has arrived for STALL_MS. */
async function waitUntil(rx: HookReceiver, done: () => boolean): Promise<void> {
  let seen = -1;
  let since = Date.now();
  while (!done()) {
    if (rx.arrivals.length !== seen) [seen, since] = [rx.arrivals.length, Date.now()];
    else if (Date.now() - since > STALL_MS) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stats = (xs: number[]) => ({
  p50: round(percentile(xs, 50), 1),
  p99: round(percentile(xs, 99), 1),
  max: round(Math.max(...xs), 1),
  min: round(Math.min(...xs), 1),
});

export async function measureWebhooks(
  server: BenchServer,
  o: { durationS: number; connections: number; cleanKey: (keyId: string) => void },
): Promise<WebhookFigures> {
  const t0 = performance.now();
  const rx = await new HookReceiver().start();
  onCleanup(() => rx.close());
  try {
    // A staging partner (local destinations are allowed for staging events only) whose app's webhook_url is the receiver.
    const p = await createPartner(server, {
      environment: 'staging',
      scopes: ['delivery:read', 'delivery:write'],
    });
    o.cleanKey(p.keyId);
    const path = `/hook/${randomBytes(4).toString('hex')}`;
    await admin(server, 'PATCH', `/apps/${p.appId}`, { webhook_url: `${rx.url}${path}` });
    const createPath = `${DELIVERY}/orders.create`;
    const load = new LoadGenerator(
      server.port,
      o.connections,
      server.cpuMs,
      Number.POSITIVE_INFINITY,
    );
    try {
      const route = signedRoute(
        'orders.create (staging, webhook to the receiver)',
        createPath,
        p,
        server.url,
        () => orderBody(),
      );
      // Warm-up (JIT, pools, key cache, the dispatcher's sockets); its events are waited for, then dropped.
      const [warm] = await load.throughput([route], 1, [2000]);
      checkFailures(load, 'webhook warm-up');
      await waitUntil(rx, () => firstArrivals(rx, path).size >= warm!.requests);
      rx.arrivals = [];

      // No backlog: single creates at a steady low rate.
      const count = Math.max(20, Math.min(200, Math.round(20 * o.durationS)));
      const responseAt = new Map<string, number>();
      const start = wallNow();
      for (let i = 0; i < count; i++) {
        const wait = start + (i * 1000) / TRICKLE_PER_S - wallNow();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const res = await call<{ data: { order_details: { order_id: string } } }>(
          p,
          'POST',
          createPath,
          orderBody(),
        );
        responseAt.set(res.body.data.order_details.order_id, wallNow());
      }
      await waitUntil(rx, () => firstArrivals(rx, path).size >= count);
      const trickle = [...firstArrivals(rx, path).values()].filter((a) =>
        responseAt.has(a.orderId!),
      );
      if (trickle.length < count)
        throw new Error(
          `only ${trickle.length}/${count} trickle events arrived (nothing new for ${STALL_MS / 1000} s)`,
        );
      const fromResponse = stats(trickle.map((a) => a.at - responseAt.get(a.orderId!)!));
      const fromCreatedAt = stats(trickle.map((a) => a.at - a.createdAt));
      rx.arrivals = [];

      // Throughput: creates as fast as the connections go, then every event counted to its arrival.
      const b0 = wallNow();
      const [burst] = await load.throughput([route], o.durationS, [expectedRate(warm!.rps)]);
      const t1 = wallNow();
      checkFailures(load, 'webhook throughput');
      const created = burst!.requests;
      await waitUntil(rx, () => firstArrivals(rx, path).size >= created);
      const arrived = [...firstArrivals(rx, path).values()].map((a) => a.at).sort((a, b) => a - b);
      if (arrived.length < created)
        throw new Error(
          `only ${arrived.length}/${created} events arrived (nothing new for ${STALL_MS / 1000} s)`,
        );
      const spanMs = arrived[arrived.length - 1]! - arrived[0]!;
      const createdPerS = burst!.rps;
      const deliveredPerS = created / (spanMs / 1000);
      const windowMs = burst!.seconds * 1000;
      const slackRatio = windowMs / (windowMs + PLATFORM_POLL_MS);
      console.log(
        `  webhooks: trickle of ${count} at ${TRICKLE_PER_S}/s, response → arrival p50 ${fromResponse.p50} ms p99 ${fromResponse.p99} ms; ` +
          `${created} orders at ${createdPerS.toFixed(0)}/s delivered at ${deliveredPerS.toFixed(0)}/s (window ${((t1 - b0) / 1000).toFixed(1)} s); webhook measures took ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      return {
        trickle: {
          orders: count,
          perSecond: TRICKLE_PER_S,
          fromResponseMs: fromResponse,
          fromCreatedAtMs: {
            p50: fromCreatedAt.p50,
            p99: fromCreatedAt.p99,
            max: fromCreatedAt.max,
          },
          targetP99Ms: LAG_TARGET_MS,
          pass: fromResponse.p99 < LAG_TARGET_MS,
        },
        throughput: {
          connections: o.connections,
          created,
          createdPerS: round(createdPerS, 1),
          delivered: arrived.length,
          deliveredPerS: round(deliveredPerS, 1),
          ratio: round(deliveredPerS / createdPerS, 3),
          slackRatio: round(slackRatio, 3),
          tailMs: round(arrived[arrived.length - 1]! - t1, 1),
          pass: deliveredPerS / createdPerS >= slackRatio,
        },
      };
    } finally {
      load.close();
    }
  } finally {
    await rx.close();
  }
}
