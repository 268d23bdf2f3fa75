/**
 * Code samples for each partner operation (curl, the SDK, `ppctl`), generated from the OpenAPI
 * document: the request is the operation's first documented example, so a sample cannot say
 * something the document does not (test/docs/contract/samples.test.ts runs them against the SDK and ppctl).
 */

/** An operation's example input, as the document gives it. */
export interface SampleInput {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  query: Record<string, unknown>;
}

export interface Samples {
  curl: string;
  sdk: string;
  ppctl: string;
  /** The file `ppctl` reads with `-f`, when the command takes one. */
  ppctlFile?: { name: string; content: string };
  /** The body ppctl sends and why, when it is less than the example. */
  ppctlOmits?: { body: Record<string, unknown>; note: string };
}

type Args = (x: SampleInput) => unknown[];
interface Call {
  /** The client method's dotted path and how the example becomes its arguments. */
  sdk: [string, Args];
  /** The ppctl words and arguments, or a file it reads with `-f`. */
  ppctl: (x: SampleInput) => string[] | { words: string[]; file: string };
  /** What ppctl leaves out of the example, when its flags cannot say all of it (shown under the command). */
  ppctlOmits?: (x: SampleInput) => { body: Record<string, unknown>; note: string };
}

const none: Args = () => [];
const body: Args = (x) => [x.body];
const query: Args = (x) => [x.query];
const field =
  (name: string): Args =>
  (x) => [(x.body ?? x.query)[name]];
const flags = (x: Record<string, unknown>, map: Record<string, string>) =>
  Object.entries(map).flatMap(([key, flag]) =>
    x[key] === undefined ? [] : [`--${flag}`, String(x[key])],
  );
/** `orders get ID` or `--reference REF`, by which the example looks the record up. */
const idOrRef = (words: string[], id: string, ref: string) => (x: SampleInput) => {
  const input = x.body ?? x.query;
  return input[id] !== undefined
    ? [...words, String(input[id])]
    : [...words, '--reference', String(input[ref])];
};
const point = (c: unknown) => {
  const p = c as { lat: number; lng: number } | undefined;
  return p ? `${p.lat},${p.lng}` : undefined;
};

const CALLS: Record<string, Call> = {
  'delivery.health': { sdk: ['delivery.health', none], ppctl: () => ['health'] },
  'delivery.orders.create': {
    sdk: ['delivery.orders.create', body],
    ppctl: () => ({ words: ['orders', 'create'], file: 'order.json' }),
  },
  'delivery.orders.create_bulk': {
    sdk: ['delivery.orders.createBulk', (x) => [x.body?.orders]],
    ppctl: () => ({ words: ['orders', 'bulk'], file: 'orders.json' }),
  },
  'delivery.orders.get': {
    sdk: ['delivery.orders.get', field('order_id')],
    ppctl: idOrRef(['orders', 'get'], 'order_id', 'order_reference'),
  },
  'delivery.orders.track': {
    sdk: ['delivery.orders.track', field('order_id')],
    ppctl: (x) => ['orders', 'track', String(x.body?.order_id)],
  },
  'delivery.orders.cancel': {
    sdk: [
      'delivery.orders.cancel',
      (x) => [x.body?.order_id, ...(x.body?.reason === undefined ? [] : [x.body.reason])],
    ],
    ppctl: (x) => [
      'orders',
      'cancel',
      String(x.body?.order_id),
      ...flags(x.body ?? {}, { reason: 'reason' }),
    ],
  },
  'delivery.orders.estimate': {
    sdk: ['delivery.orders.estimate', body],
    ppctl: (x) => {
      const b = (x.body ?? {}) as Record<string, any>;
      const to = point(b.delivery_location?.coordinates);
      const from = point(b.pickup_location?.coordinates);
      return [
        'estimate',
        '--to',
        String(to),
        ...(from ? ['--from', from] : []),
        ...flags(b, { priority: 'priority', order_date: 'date' }),
      ];
    },
    ppctlOmits: (x) => {
      const {
        delivery_location: to,
        pickup_location: from,
        ...rest
      } = (x.body ?? {}) as Record<string, any>;
      const points = (l: any) => (l?.coordinates ? { coordinates: l.coordinates } : undefined);
      return {
        body: {
          ...rest,
          delivery_location: points(to),
          ...(from ? { pickup_location: points(from) } : {}),
        },
        note: 'ppctl estimates between points: it sends no addresses.',
      };
    },
  },
  'delivery.locations.list': {
    sdk: ['delivery.locations.list', body],
    ppctl: (x) => [
      'locations',
      ...flags(x.body ?? {}, { region: 'region', zone: 'zone' }),
      ...(x.body?.include_coordinates ? ['--coordinates'] : []),
    ],
  },
  'delivery.test_clocks.create': {
    sdk: [
      'delivery.testClocks.create',
      (x) => [x.body?.frozen_time, ...(x.body?.name === undefined ? [] : [x.body.name])],
    ],
    ppctl: (x) => ['clocks', 'create', ...flags(x.body ?? {}, { frozen_time: 'at', name: 'name' })],
  },
  'delivery.test_clocks.list': {
    sdk: ['delivery.testClocks.list', (x) => (x.body?.limit === undefined ? [] : [x.body.limit])],
    ppctl: (x) => ['clocks', 'list', ...flags(x.body ?? {}, { limit: 'limit' })],
  },
  'delivery.test_clocks.get': {
    sdk: ['delivery.testClocks.get', field('test_clock_id')],
    ppctl: (x) => ['clocks', 'get', String(x.body?.test_clock_id)],
  },
  'delivery.test_clocks.advance': {
    sdk: ['delivery.testClocks.advance', (x) => [x.body?.test_clock_id, x.body?.frozen_time]],
    ppctl: (x) => [
      'clocks',
      'advance',
      String(x.body?.test_clock_id),
      ...flags(x.body ?? {}, { frozen_time: 'to' }),
    ],
  },
  'delivery.test_clocks.delete': {
    sdk: ['delivery.testClocks.delete', field('test_clock_id')],
    ppctl: (x) => ['clocks', 'delete', String(x.body?.test_clock_id)],
  },
  'delivery.wallet.balance': {
    sdk: ['delivery.wallet.balance', none],
    ppctl: () => ['wallet', 'balance'],
  },
  'delivery.wallet.topup.initiate': {
    sdk: ['delivery.wallet.topup.initiate', field('amount_ghs')],
    ppctl: (x) => ['wallet', 'topup', String(x.body?.amount_ghs)],
  },
  'delivery.wallet.topup.verify': {
    sdk: ['delivery.wallet.topup.verify', field('client_reference')],
    ppctl: (x) => ['wallet', 'verify', String(x.body?.client_reference)],
  },
  'delivery.messages.settings.get': {
    sdk: ['delivery.messages.settings.get', none],
    ppctl: () => ['messages', 'settings'],
  },
  'delivery.messages.settings.update': {
    sdk: ['delivery.messages.settings.update', body],
    ppctl: (x) => {
      const b = (x.body ?? {}) as {
        messages?: Record<string, boolean>;
        sender_name?: string | null;
      };
      const kinds = (on: boolean) =>
        Object.entries(b.messages ?? {})
          .filter(([, v]) => v === on)
          .map(([k]) => k)
          .join(',');
      return [
        'messages',
        'set',
        ...(kinds(true) ? ['--on', kinds(true)] : []),
        ...(kinds(false) ? ['--off', kinds(false)] : []),
        ...(b.sender_name === null ? ['--platform-sender'] : []),
        ...flags(x.body ?? {}, { sender_name: 'sender', language: 'language' }),
      ];
    },
  },
  'safe-catalog.health': { sdk: ['catalog.health', none], ppctl: () => ['health'] },
  'safe-catalog.catalog.list': {
    sdk: ['catalog.list', query],
    ppctl: (x) => [
      'catalog',
      'list',
      ...flags(x.query, { vendor_id: 'vendor', limit: 'limit', cursor: 'cursor' }),
    ],
  },
  'safe-catalog.catalog.get': {
    sdk: ['catalog.get', field('product_id')],
    ppctl: (x) => ['catalog', 'get', String(x.query.product_id)],
  },
  'safe-catalog.orders.create': {
    sdk: ['catalog.orders.create', body],
    ppctl: () => ({ words: ['catalog', 'orders', 'create'], file: 'sale.json' }),
  },
  'safe-catalog.orders.verify': {
    sdk: ['catalog.orders.verify', field('sale_id')],
    ppctl: (x) => ['catalog', 'orders', 'verify', String(x.body?.sale_id)],
  },
  'safe-catalog.orders.get': {
    sdk: ['catalog.orders.get', query],
    ppctl: idOrRef(['catalog', 'orders', 'get'], 'sale_id', 'external_reference'),
  },
  'safe-catalog.payouts.list': {
    sdk: ['catalog.payouts.list', query],
    ppctl: (x) => [
      'catalog',
      'payouts',
      'list',
      ...flags(x.query, { status: 'status', limit: 'limit', cursor: 'cursor' }),
    ],
  },
  'safe-catalog.payouts.get': {
    sdk: ['catalog.payouts.get', field('payout_id')],
    ppctl: (x) => ['catalog', 'payouts', 'get', String(x.query.payout_id)],
  },
};

/** Operations the samples know; the docs test holds this against the document's operations. */
export const SAMPLED_OPERATIONS = Object.keys(CALLS);

/** POSIX shell quoting: bare when safe, else single quotes. */
export const shellQuote = (s: string) =>
  /^[A-Za-z0-9_./:,@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

const queryString = (q: Record<string, unknown>) =>
  Object.entries(q)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/**
 * curl with the signature computed in the shell (openssl): the canonical request is timestamp,
 * nonce, method, path, sorted query and the body's SHA-256, one per line (see Authentication).
 */
function curlSample(x: SampleInput): string {
  const qs = queryString(x.query);
  const json = x.body === undefined ? '' : JSON.stringify(x.body, null, 2);
  const method = x.method.toUpperCase();
  return [
    `BODY=${shellQuote(json)}`,
    'TS=$(date +%s); NONCE=$(openssl rand -hex 16)',
    `HASH=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)`,
    `SIG=$(printf '%s\\n%s\\n%s\\n%s\\n%s\\n%s' "$TS" "$NONCE" ${method} ${x.path} ${shellQuote(qs)} "$HASH" \\`,
    '  | openssl dgst -sha256 -hmac "$PARTNER_SIGNING_SECRET" -r | cut -d\' \' -f1)',
    `curl -sS -X ${method} "$PARTNER_BASE_URL${x.path}${qs ? `?${qs}` : ''}" \\`,
    '  -H "X-API-Key: $PARTNER_API_KEY" -H "X-Timestamp: $TS" -H "X-Nonce: $NONCE" -H "X-Signature: $SIG"' +
      (x.body === undefined ? '' : ' \\\n  -H \'Content-Type: application/json\' --data "$BODY"'),
  ].join('\n');
}

const SDK_SETUP = `import { PartnerClient } from '@partner-platform/sdk';

const client = new PartnerClient({
  apiKey: process.env.PARTNER_API_KEY,
  signingSecret: process.env.PARTNER_SIGNING_SECRET,
  baseUrl: process.env.PARTNER_BASE_URL,
});
`;

/** The samples of one operation, or undefined for an operation no client method calls. */
export function samplesFor(operationId: string, x: SampleInput): Samples | undefined {
  const call = CALLS[operationId];
  if (!call) return undefined;
  const [method, args] = call.sdk;
  const sdkArgs = args(x)
    .map((a) => JSON.stringify(a, null, 2))
    .join(', ');
  const cli = call.ppctl(x);
  const words = Array.isArray(cli) ? cli : [...cli.words, '-f', cli.file];
  return {
    curl: curlSample(x),
    sdk: `${SDK_SETUP}\nconst result = await client.${method}(${sdkArgs});`,
    ppctl: `ppctl ${words.map(shellQuote).join(' ')}`,
    ...(Array.isArray(cli)
      ? {}
      : { ppctlFile: { name: cli.file, content: JSON.stringify(x.body, null, 2) } }),
    ...(call.ppctlOmits ? { ppctlOmits: call.ppctlOmits(x) } : {}),
  };
}
