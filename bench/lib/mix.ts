/**
 * Soak traffic: many partners (staging and production apps), a weighted mix of operations, each
 * answer classified (ok, expected 4xx from the deliberate bad requests, unexpected 4xx, 5xx,
 * network error), per-operation latencies and a 10-second time series. Signed with the SDK's
 * signHeaders at send time (the soak measures the system, not the signing cost).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { PartnerClient } from '../../packages/sdk/src/index.ts';
import { encodeCursor } from '../../src/modules/catalog/domain/places.ts';
import type { CatalogIds } from './catalog-data.ts';
import { DELIVERY, estimateBody, orderBody, partnerPaidBody, pick } from './orders.ts';
import { percentile, round } from './stats.ts';

const SAFE = '/api/v1/safe-catalog';
const POOL = 500;

export interface Target {
  port: number;
  url: string;
  agent: Agent;
}
export const newTarget = (s: { port: number; url: string }, sockets: number): Target => ({
  port: s.port,
  url: s.url,
  agent: new Agent({ keepAlive: true, maxSockets: sockets }),
});

export interface SoakPartner {
  label: string;
  environment: 'staging' | 'production';
  client: PartnerClient;
  orders: string[];
  /** Orders cancelled (answered 200), and every order a cancel was sent for. */
  cancelled: string[];
  claimed: Set<string>;
  sales: string[];
}

export interface World {
  partners: SoakPartner[];
  catalog: CatalogIds;
  /** Indexes of listed products, and of those with stock (cod items). */
  listedIdx: number[];
  sellableIdx: number[];
  vendorOfIdx: (i: number) => number;
}

type Outcome = 'ok' | 'expected4xx' | 'unexpected4xx' | 'unexpected5xx' | 'network';
const OUTCOMES: Outcome[] = ['ok', 'expected4xx', 'unexpected4xx', 'unexpected5xx', 'network'];

interface OpStats {
  latencies: number[];
  counts: Record<Outcome, number>;
  samples: string[];
}

export class Recorder {
  readonly ops = new Map<string, OpStats>();
  readonly buckets: Array<{ n: number; lat: number[]; unexpected: number }> = [];
  start = performance.now();
  constructor(readonly bucketMs = 10_000) {}

  record(op: string, ms: number, outcome: Outcome, sample?: string): void {
    let s = this.ops.get(op);
    if (!s)
      this.ops.set(
        op,
        (s = {
          latencies: [],
          counts: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>,
          samples: [],
        }),
      );
    s.counts[outcome]++;
    if (outcome === 'ok' || outcome === 'expected4xx') s.latencies.push(ms);
    else if (sample && s.samples.length < 5) s.samples.push(sample);
    const k = Math.floor((performance.now() - this.start) / this.bucketMs);
    while (this.buckets.length <= k) this.buckets.push({ n: 0, lat: [], unexpected: 0 });
    const b = this.buckets[k]!;
    b.n++;
    b.lat.push(ms);
    if (outcome !== 'ok' && outcome !== 'expected4xx') b.unexpected++;
  }

  summary(seconds: number) {
    return [...this.ops.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, s]) => {
        const n = OUTCOMES.reduce((sum, o) => sum + s.counts[o], 0);
        return {
          op,
          n,
          rps: round(n / seconds, 2),
          p50Ms: round(percentile(s.latencies, 50), 2),
          p99Ms: round(percentile(s.latencies, 99), 2),
          ...s.counts,
          samples: s.samples,
        };
      });
  }

  series() {
    return this.buckets.map((_, k) => this.bucket(k)!);
  }

  bucket(k: number) {
    const b = this.buckets[k];
    return (
      b && {
        atS: ((k + 1) * this.bucketMs) / 1000,
        rps: round(b.n / (this.bucketMs / 1000), 1),
        p50Ms: round(percentile(b.lat, 50), 1),
        p99Ms: round(percentile(b.lat, 99), 1),
        unexpected: b.unexpected,
      }
    );
  }
}

interface Res {
  status: number;
  text: string;
}

function send(
  t: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: t.port, path, method, agent: t.agent, headers, timeout: 30_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

/** One request, resent once per stale keep-alive socket the server had closed (it never read it). */
async function sendFresh(
  t: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<Res> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(t, method, path, headers, body);
    } catch (err) {
      const stale =
        (err as { reusedSocket?: boolean }).reusedSocket &&
        (err as NodeJS.ErrnoException).code === 'ECONNRESET';
      if (!stale || attempt > 8) throw err;
    }
  }
}

interface Ctx {
  t: Target;
  p: SoakPartner;
  w: World;
  rec: Recorder;
}
interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  expect?: number;
  signed?: boolean;
  headers?: Record<string, string>;
}

/** Sends, times and classifies one call; answers the parsed body of a 2xx answer, else null. */
async function call(c: Ctx, op: string, k: Call): Promise<any> {
  const text = k.body === undefined ? '' : JSON.stringify(k.body);
  const headers: Record<string, string> = {
    ...(k.signed === false ? {} : c.p.client.signHeaders(k.method, k.path, text)),
    ...k.headers,
  };
  if (text)
    Object.assign(headers, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
  const t0 = performance.now();
  let res: Res;
  try {
    res = await sendFresh(c.t, k.method, k.path, headers, text);
  } catch (err) {
    c.rec.record(
      op,
      performance.now() - t0,
      'network',
      `${k.method} ${k.path}: ${(err as Error).message}`,
    );
    return null;
  }
  const ms = performance.now() - t0;
  const ok =
    k.expect === undefined ? res.status >= 200 && res.status < 300 : res.status === k.expect;
  const outcome: Outcome = ok
    ? k.expect === undefined
      ? 'ok'
      : 'expected4xx'
    : res.status >= 500
      ? 'unexpected5xx'
      : 'unexpected4xx';
  c.rec.record(
    op,
    ms,
    outcome,
    ok ? undefined : `${res.status} ${k.method} ${k.path.slice(0, 80)}: ${res.text.slice(0, 200)}`,
  );
  if (!ok || k.expect !== undefined) return null;
  try {
    return JSON.parse(res.text);
  } catch {
    return null;
  }
}

const keep = (pool: string[], id: string | undefined) => {
  if (!id) return;
  pool.push(id);
  if (pool.length > POOL) pool.shift();
};
const post = (path: string, body: unknown): Call => ({ method: 'POST', path, body });

function codBody(w: World) {
  const i = pick(w.sellableIdx);
  return {
    payment_method: 'cod',
    vendor_id: w.catalog.vendors[w.vendorOfIdx(i)],
    items: [{ product_id: w.catalog.products[i], variant_id: w.catalog.variants[i], quantity: 1 }],
    buyer: { name: 'Kwame Mensah', phone: '024 765 4321' },
    delivery: { address: '5 Ring Road, Osu, Accra', lat: 5.556, lng: -0.179 },
    external_reference: `soak-${Math.random().toString(36).slice(2, 12)}`,
  };
}

async function createOrder(c: Ctx, op: string, body: unknown): Promise<void> {
  keep(
    c.p.orders,
    (await call(c, op, post(`${DELIVERY}/orders.create`, body)))?.data?.order_details?.order_id,
  );
}

async function codCreate(c: Ctx): Promise<void> {
  keep(
    c.p.sales,
    (await call(c, 'safe orders.create (cod)', post(`${SAFE}/orders.create`, codBody(c.w))))?.data
      ?.sale_id,
  );
}

async function cancel(c: Ctx): Promise<void> {
  // Recent orders only: the sandbox courier delivers staging orders after a few minutes, and delivered ones cannot be cancelled.
  // Claimed before the call, so that two clients of one partner never cancel the same order.
  const id = c.p.orders.slice(-20).find((o) => !c.p.claimed.has(o));
  if (!id) return createOrder(c, 'orders.create', orderBody());
  c.p.claimed.add(id);
  if (
    await call(
      c,
      'orders.cancel',
      post(`${DELIVERY}/orders.cancel`, { order_id: id, reason: 'Customer changed their mind' }),
    )
  )
    keep(c.p.cancelled, id);
}

async function topUp(c: Ctx): Promise<void> {
  const init = await call(
    c,
    'wallet.topup.initiate',
    post(`${DELIVERY}/wallet.topup.initiate`, { amount_ghs: 500 }),
  );
  if (!init) return;
  const pay = `${new URL(init.data.checkout_url).pathname}/pay`;
  await call(c, 'sandbox checkout pay', {
    method: 'POST',
    path: pay,
    signed: false,
    headers: { accept: 'application/json', 'content-length': '0' },
  });
  await call(
    c,
    'wallet.topup.verify',
    post(`${DELIVERY}/wallet.topup.verify`, { client_reference: init.data.client_reference }),
  );
}

function catalogList(c: Ctx): Promise<unknown> {
  const { catalog, listedIdx } = c.w;
  const r = Math.random();
  const q =
    r < 0.5
      ? `limit=${pick([20, 50])}`
      : r < 0.8
        ? `limit=50&vendor_id=${catalog.vendors[c.w.vendorOfIdx(pick(listedIdx))]}`
        : `limit=50&cursor=${encodeCursor(catalog.products[pick(listedIdx)]!)}`;
  return call(c, 'catalog.list', { method: 'GET', path: `${SAFE}/catalog.list?${q}` });
}

interface Op {
  name: string;
  weight: number;
  production?: boolean;
  run(c: Ctx): Promise<unknown>;
}

/** The weighted mix; ops marked production run only with production keys. */
export const OPS: Op[] = [
  {
    name: 'orders.estimate',
    weight: 12,
    run: (c) => call(c, 'orders.estimate', post(`${DELIVERY}/orders.estimate`, estimateBody())),
  },
  { name: 'orders.create', weight: 12, run: (c) => createOrder(c, 'orders.create', orderBody()) },
  {
    name: 'orders.get',
    weight: 14,
    run: (c) =>
      call(c, 'orders.get', post(`${DELIVERY}/orders.get`, { order_id: pick(c.p.orders) })),
  },
  {
    name: 'orders.track',
    weight: 10,
    run: (c) =>
      call(c, 'orders.track', post(`${DELIVERY}/orders.track`, { order_id: pick(c.p.orders) })),
  },
  { name: 'orders.cancel', weight: 3, run: cancel },
  {
    name: 'locations.list',
    weight: 6,
    run: (c) =>
      call(
        c,
        'locations.list',
        post(
          `${DELIVERY}/locations.list`,
          pick([{}, { region: 'Greater Accra' }, { include_coordinates: true }]),
        ),
      ),
  },
  { name: 'catalog.list', weight: 10, run: catalogList },
  {
    name: 'catalog.get',
    weight: 10,
    run: (c) =>
      call(c, 'catalog.get', {
        method: 'GET',
        path: `${SAFE}/catalog.get?product_id=${c.w.catalog.products[pick(c.w.listedIdx)]}`,
      }),
  },
  {
    name: 'wallet.balance',
    weight: 4,
    production: true,
    run: (c) => call(c, 'wallet.balance', { method: 'GET', path: `${DELIVERY}/wallet.balance` }),
  },
  {
    name: 'orders.create (wallet)',
    weight: 4,
    production: true,
    run: (c) => createOrder(c, 'orders.create (wallet)', partnerPaidBody()),
  },
  { name: 'wallet top-up', weight: 0.4, production: true, run: topUp },
  { name: 'safe orders.create (cod)', weight: 3, production: true, run: codCreate },
  {
    name: 'safe orders.verify',
    weight: 2,
    production: true,
    run: (c) =>
      c.p.sales.length
        ? call(c, 'safe orders.verify', post(`${SAFE}/orders.verify`, { sale_id: pick(c.p.sales) }))
        : codCreate(c),
  },
  {
    name: 'safe orders.get',
    weight: 1,
    production: true,
    run: (c) =>
      c.p.sales.length
        ? call(c, 'safe orders.get', {
            method: 'GET',
            path: `${SAFE}/orders.get?sale_id=${pick(c.p.sales)}`,
          })
        : codCreate(c),
  },
  // Deliberate 4xx: counted as expected only when the answer is exactly the status asked for.
  {
    name: '4xx orders.get unknown',
    weight: 1,
    run: (c) =>
      call(c, '4xx orders.get unknown (404)', {
        ...post(`${DELIVERY}/orders.get`, { order_id: 'dlv_01NOSUCHORDER0000000000000' }),
        expect: 404,
      }),
  },
  {
    name: '4xx orders.create invalid',
    weight: 1,
    run: (c) =>
      call(c, '4xx orders.create invalid (400)', {
        ...post(`${DELIVERY}/orders.create`, { ...orderBody(), customer: undefined }),
        expect: 400,
      }),
  },
  {
    name: '4xx catalog.get unknown',
    weight: 0.5,
    run: (c) =>
      call(c, '4xx catalog.get unknown (404)', {
        method: 'GET',
        path: `${SAFE}/catalog.get?product_id=prd_NOSUCHPRODUCT`,
        expect: 404,
      }),
  },
  {
    name: '4xx orders.cancel twice',
    weight: 0.5,
    run: (c) =>
      c.p.cancelled.length
        ? call(c, '4xx orders.cancel twice (400)', {
            ...post(`${DELIVERY}/orders.cancel`, { order_id: pick(c.p.cancelled) }),
            expect: 400,
          })
        : cancel(c),
  },
];

export const mixWeights = () =>
  OPS.map((o) => ({ op: o.name, weight: o.weight, productionOnly: Boolean(o.production) }));

/**
 * `vus` virtual clients, each: pick an operation by weight, a partner allowed to run it and the
 * next target (round robin over instances), run it, then think (exponential, mean `thinkMs`; 0 = closed loop).
 */
export async function runMix(o: {
  world: World;
  targets: Target[];
  vus: number;
  thinkMs: number;
  seconds: number;
  rec: Recorder;
}): Promise<void> {
  const total = OPS.reduce((s, op) => s + op.weight, 0);
  const prod = o.world.partners.filter((p) => p.environment === 'production');
  const deadline = performance.now() + o.seconds * 1000;
  let next = 0;
  const vu = async () => {
    while (performance.now() < deadline) {
      let r = Math.random() * total;
      const op = OPS.find((x) => (r -= x.weight) < 0) ?? OPS[0]!;
      const p = pick(op.production ? prod : o.world.partners);
      await op.run({ t: o.targets[next++ % o.targets.length]!, p, w: o.world, rec: o.rec });
      if (o.thinkMs > 0)
        await new Promise((res) => setTimeout(res, -Math.log(1 - Math.random()) * o.thinkMs));
    }
  };
  await Promise.all(Array.from({ length: o.vus }, vu));
}
