/**
 * Couriers reporting their position through the courier app's endpoint (POST /courier/actions, a
 * `position` action with the app's session cookie and CSRF header; no Origin, as a same-origin fetch may send none), each every `everyMs`,
 * spread evenly over the interval; in a process of its own (bench/lib/courier-fleet.ts) so that the
 * reports never share the measuring process's event loop.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.ts';

export interface FleetOrder {
  port: number;
  everyMs: number;
  couriers: Array<{ cookie: string; csrf: string }>;
}

export interface FleetReport {
  sent: number;
  ok: number;
  failed: number;
  /** Reports due but not sent in time because earlier ones were still waiting (the server fell behind). */
  skipped: number;
  p50Ms: number;
  p99Ms: number;
  firstFailures: string[];
}

const TICK_MS = 50;
const ACCRA = { lat: 5.6037, lng: -0.187 };
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
let timer: NodeJS.Timeout | undefined;
const samples: number[] = [];
const report: FleetReport = {
  sent: 0,
  ok: 0,
  failed: 0,
  skipped: 0,
  p50Ms: 0,
  p99Ms: 0,
  firstFailures: [],
};

function send(order: FleetOrder, courier: FleetOrder['couriers'][number]): Promise<void> {
  const body = JSON.stringify({
    id: randomUUID(),
    kind: 'position',
    at: new Date().toISOString(),
    payload: { lat: ACCRA.lat + Math.random() * 0.05, lng: ACCRA.lng - Math.random() * 0.05 },
  });
  report.sent++;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const fail = (why: string) => {
      report.failed++;
      if (report.firstFailures.length < 5) report.firstFailures.push(why);
      resolve();
    };
    const req = request(
      {
        host: '127.0.0.1',
        port: order.port,
        path: '/courier/actions',
        method: 'POST',
        agent,
        headers: {
          cookie: courier.cookie,
          'x-csrf-token': courier.csrf,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          samples.push(performance.now() - t0);
          if (res.statusCode === 200 && text.includes('"applied"')) report.ok++;
          else fail(`${res.statusCode}: ${text.slice(0, 200)}`);
          resolve();
        });
      },
    );
    req.on('error', (err) => fail(err.message));
    req.end(body);
  });
}

function start(order: FleetOrder): void {
  const busy = new Set<number>();
  const perTick = order.couriers.length / (order.everyMs / TICK_MS);
  let owed = 0;
  let next = 0;
  timer = setInterval(() => {
    owed += perTick;
    for (; owed >= 1; owed--) {
      const k = next++ % order.couriers.length;
      // A courier whose previous report has not been answered skips this one, as a phone would wait.
      if (busy.has(k)) {
        report.skipped++;
        continue;
      }
      busy.add(k);
      void send(order, order.couriers[k]!).then(() => busy.delete(k));
    }
  }, TICK_MS);
}

process.on('disconnect', () => process.exit(0));
process.on('message', (msg: { start?: FleetOrder; stop?: true; read?: true }) => {
  if (msg.start) start(msg.start);
  if (msg.stop) clearInterval(timer);
  if (msg.stop || msg.read) {
    report.p50Ms = percentile(samples, 50);
    report.p99Ms = percentile(samples, 99);
    process.send!(report);
  }
});
