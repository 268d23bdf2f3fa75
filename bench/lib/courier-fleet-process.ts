/**
 * Couriers reporting their position through the courier app's endpoint (POST /courier/actions, a
 * `position` action with the app's session cookie and CSRF header; no Origin, as a same-origin fetch may send none), each every `everyMs`,
 * spread evenly over the interval; in a process of its own (bench/lib/courier-fleet.ts) so that the
 * reports never share the measuring process's event loop. With `work`, the couriers also take the
 * offers they are sent and deliver them (courier-fleet-jobs.ts).
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type Courier, FleetWork, type WorkOrder, type WorkReport } from './courier-fleet-jobs.ts';
import { percentile } from './stats.ts';

export interface FleetOrder {
  port: number;
  everyMs: number;
  couriers: Courier[];
  work?: WorkOrder;
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
  /** The jobs the couriers took and delivered, when they work. */
  work?: WorkReport;
}

const TICK_MS = 50;
const ACCRA = { lat: 5.6037, lng: -0.187 };
// A connection per courier at most, as each phone has its own: a shared cap would queue reports
// in this process and count the wait as the server's latency.
const agent = new Agent({ keepAlive: true });
let timer: NodeJS.Timeout | undefined;
let work: FleetWork | undefined;
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

/** One action through the courier app's endpoint, as the app sends it (a fresh id per action). */
function post(
  port: number,
  courier: Courier,
  kind: string,
  payload: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> & { result?: string } }> {
  const body = JSON.stringify({ id: randomUUID(), kind, at: new Date().toISOString(), payload });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
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
          let parsed: Record<string, unknown> = { text: text.slice(0, 200) };
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // Not JSON: kept as text for the failure's description.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function report1(order: FleetOrder, courier: Courier): Promise<void> {
  const position = { lat: ACCRA.lat + Math.random() * 0.05, lng: ACCRA.lng - Math.random() * 0.05 };
  report.sent++;
  const t0 = performance.now();
  const fail = (why: string) => {
    report.failed++;
    if (report.firstFailures.length < 5) report.firstFailures.push(why);
  };
  try {
    const answer = await post(order.port, courier, 'position', position);
    samples.push(performance.now() - t0);
    if (answer.status === 200 && answer.body.result === 'applied') report.ok++;
    else fail(`${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
  } catch (err) {
    fail((err as Error).message);
  }
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
      void report1(order, order.couriers[k]!).then(() => busy.delete(k));
    }
  }, TICK_MS);
  if (order.work) {
    work = new FleetWork(order.port, order.work, (courier, kind, payload) =>
      post(order.port, courier, kind, payload),
    );
    work.start(order.couriers);
  }
}

process.on('disconnect', () => process.exit(0));
process.on('message', async (msg: { start?: FleetOrder; stop?: true; read?: true }) => {
  if (msg.start) start(msg.start);
  if (msg.stop) {
    clearInterval(timer);
    await work?.stop();
  }
  if (msg.stop || msg.read) {
    report.p50Ms = percentile(samples, 50);
    report.p99Ms = percentile(samples, 99);
    if (work) report.work = { ...work.report };
    process.send!(report);
  }
});
