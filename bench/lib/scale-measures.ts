/**
 * What the scale suite measures at each size: every console and dashboard list page (sequential
 * requests with the signed-in session's cookie, p99) and orders.get / orders.track under load (20
 * connections, p99), and how it prints them side by side.
 */
import type { LoadGenerator, Route, Signer } from './load.ts';
import { scaleId } from './scale-seed.ts';
import { table } from './stats.ts';

/** Every console and dashboard list p99 at the big size (issue 30). */
export const LIST_TARGET_MS = 50;
/** orders.get / orders.track: "flat" is at most this much above the small size's p99 (ratio, and 2 ms of slack). */
export const FLAT_RATIO = 1.5;
const FLAT_SLACK_MS = 2;

export interface PageMeasure {
  key: string;
  label: string;
  route: Route;
}

/** Headers for a page request: the session cookie of a dashboard member or a console operator. */
const cookie = (value: string): Signer => ({ signHeaders: () => ({ cookie: value }) });

/** The partner measured owns orders 0, 100, 200… (partner i % 100); one of the `loaded`, at random. */
const ownedIndex = (loaded: number) => 100 * Math.floor((Math.random() * loaded) / 100);

export function pageMeasures(o: {
  memberCookie: string;
  operatorCookie: string;
  partnerId: string;
  appId: string;
  loaded: () => number;
}): PageMeasure[] {
  const dash = cookie(o.memberCookie);
  const con = cookie(o.operatorCookie);
  const page = (
    key: string,
    label: string,
    path: string,
    signer: Signer,
    target?: () => string,
  ) => ({
    key,
    label,
    route: { label, path, signer, ...(target ? { target } : {}) },
  });
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  return [
    page('dashboard.orders', 'dashboard orders, first page', '/dashboard/orders', dash),
    page(
      'dashboard.orders.nothing',
      'dashboard orders, status filter matching nothing',
      '/dashboard/orders?status=returning',
      dash,
    ),
    page(
      'dashboard.orders.delivered',
      'dashboard orders, status delivered',
      '/dashboard/orders?status=delivered',
      dash,
    ),
    page('dashboard.orders.search', 'dashboard reference search', '/dashboard/orders', dash, () => {
      return `/dashboard/orders?q=scale-${ownedIndex(o.loaded())}`;
    }),
    page(
      'dashboard.orders.week',
      'dashboard orders, last 7 days',
      `/dashboard/orders?from=${weekAgo}&to=${today}`,
      dash,
    ),
    page('dashboard.overview', 'dashboard overview (30-day charts)', '/dashboard', dash),
    page(
      'dashboard.webhooks',
      'dashboard webhook deliveries',
      `/dashboard/apps/${o.appId}/webhooks`,
      dash,
    ),
    page('dashboard.apps', 'dashboard apps', '/dashboard/apps', dash),
    page('dashboard.sales', 'dashboard sales', '/dashboard/sales', dash),
    page('dashboard.payouts', 'dashboard payouts', '/dashboard/payouts', dash),
    page('dashboard.wallet', 'dashboard wallet', '/dashboard/wallet', dash),
    page('dashboard.team', 'dashboard team', '/dashboard/team', dash),
    page('console.home', 'console home', '/console', con),
    page('console.orders', 'console orders board, first page', '/console/orders', con),
    page(
      'console.orders.nothing',
      'console orders, status matching nothing',
      '/console/orders?status=returning',
      con,
    ),
    page(
      'console.orders.placed',
      'console orders, status placed',
      '/console/orders?status=placed',
      con,
    ),
    page(
      'console.orders.partner',
      'console orders, one partner',
      `/console/orders?partner=${o.partnerId}`,
      con,
    ),
    page(
      'console.orders.search',
      'console orders, reference search',
      '/console/orders',
      con,
      () => {
        return `/console/orders?q=scale-${ownedIndex(o.loaded())}`;
      },
    ),
    ...(
      [
        ['webhooks', 'console webhooks'],
        ['couriers', 'console couriers'],
        ['dispatch', 'console dispatch board'],
        ['partners', 'console partners'],
        ['sales', 'console sales'],
        ['audit', 'console audit log'],
        ['refunds', 'console refunds'],
        ['confirmations', 'console confirmations'],
        ['cash', 'console cash'],
        ['payouts', 'console payouts'],
        ['topups', 'console top-ups'],
        ['journals', 'console journals'],
        ['reconciliation', 'console reconciliation'],
        ['courier-pay', 'console courier pay'],
        ['catalog/products', 'console catalog products'],
        ['activation', 'console activation requests'],
      ] as const
    ).map(([path, label]) => page(`console.${path}`, label, `/console/${path}`, con)),
  ];
}

/** A random seeded order of the measured partner, for orders.get / orders.track. */
export const ownedOrder = (loaded: number) => ({ order_id: scaleId('dlv', ownedIndex(loaded)) });

/** Pages that answer 200 to one request; the others are left out with the answer they gave. */
export async function answering(
  base: string,
  pages: PageMeasure[],
): Promise<{ ok: PageMeasure[]; left: string[] }> {
  const ok: PageMeasure[] = [];
  const left: string[] = [];
  for (const p of pages) {
    const path = p.route.target ? p.route.target() : p.route.path;
    const res = await fetch(`${base}${path}`, {
      headers: p.route.signer!.signHeaders('GET', path, ''),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    if (res.status === 200) ok.push(p);
    else left.push(`${p.label} (${path}: ${res.status})`);
  }
  return { ok, left };
}

export interface SizeFigures {
  orders: number;
  pagesP99: Record<string, number>;
  pagesP50: Record<string, number>;
  get: { p50: number; p99: number; rps: number };
  track: { p50: number; p99: number; rps: number };
}

/** One size's figures: the pages sequentially (interleaved), then orders.get and orders.track under load. */
export async function measureSize(
  load: LoadGenerator,
  pages: PageMeasure[],
  api: { get: Route; track: Route },
  requests: number,
  durationS: number,
  orders: number,
): Promise<SizeFigures> {
  await load.latency(
    pages.map((p) => p.route),
    5,
  );
  const lat = await load.latency(
    pages.map((p) => p.route),
    requests,
  );
  await load.throughput([api.get, api.track], 1, [3000, 3000]);
  const [g, t] = await load.throughput([api.get, api.track], durationS, [3000, 3000]);
  const fig = (x: { p50: number; p99: number; rps: number }) => ({
    p50: round2(x.p50),
    p99: round2(x.p99),
    rps: Math.round(x.rps),
  });
  return {
    orders,
    pagesP99: Object.fromEntries(pages.map((p, k) => [p.key, round2(lat[k]!.p99)])),
    pagesP50: Object.fromEntries(pages.map((p, k) => [p.key, round2(lat[k]!.p50)])),
    get: fig(g!),
    track: fig(t!),
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const n = (x: number) => (x >= 1_000_000 ? `${x / 1_000_000}M` : `${x / 1000}k`);

export interface Row {
  key: string;
  label: string;
  small: number;
  big: number;
  target: string;
  pass: boolean;
}

/** The table: each measure at the small and the big size, the target and a verdict. */
export function scaleRows(pages: PageMeasure[], small: SizeFigures, big: SizeFigures): Row[] {
  const flat = (key: string, label: string, a: number, b: number): Row => ({
    key,
    label,
    small: a,
    big: b,
    target: `flat (≤ ${FLAT_RATIO}× +${FLAT_SLACK_MS} ms)`,
    pass: b <= a * FLAT_RATIO + FLAT_SLACK_MS,
  });
  return [
    flat('orders.get', 'orders.get p99, 20 connections', small.get.p99, big.get.p99),
    flat('orders.track', 'orders.track p99, 20 connections', small.track.p99, big.track.p99),
    ...pages.map((p) => ({
      key: p.key,
      label: `${p.label} p99`,
      small: small.pagesP99[p.key]!,
      big: big.pagesP99[p.key]!,
      target: `≤ ${LIST_TARGET_MS} ms`,
      pass: big.pagesP99[p.key]! <= LIST_TARGET_MS,
    })),
  ];
}

export function printScale(rows: Row[], small: SizeFigures, big: SizeFigures): void {
  console.log(
    table(
      [
        'measure',
        `${n(small.orders)} orders ms`,
        `${n(big.orders)} orders ms`,
        'target',
        'verdict',
      ],
      rows.map((r) => [
        r.label,
        r.small.toFixed(2),
        r.big.toFixed(2),
        r.target,
        r.pass ? 'PASS' : 'MISS',
      ]),
    ),
  );
  console.log(
    `orders.get ${small.get.rps} → ${big.get.rps} req/s, orders.track ${small.track.rps} → ${big.track.rps} req/s under load (p50 ${small.get.p50} → ${big.get.p50} ms, ${small.track.p50} → ${big.track.p50} ms)`,
  );
}
