import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodesByStatus } from '../../../src/platform/http/openapi-errors.ts';
import type { Operation } from '../../../src/platform/http/operation.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import {
  dotted,
  hostileValue,
  mustRefuse,
  mustTry,
  requestFor,
  shapesOf,
  type Field,
} from '../../helpers/hostile-input.ts';

const LIMITS = { reads_per_minute: 1_000_000, writes_per_minute: 1_000_000 };
const TABLES = [
  'partners',
  'apps',
  'api_keys',
  'delivery_orders',
  'delivery_order_events',
  'test_clocks',
  'outbox_events',
  'ledger_entries',
  'wallet_topups',
  'sales',
  'sale_items',
  'sandbox_checkouts',
  'product_variants',
];
// A delivery window's malformed date-time has its own validation code (DELIVERY_WINDOW_INVALID).
const VALIDATION_CODES = [
  'VALIDATION_ERROR',
  'INVALID_ORDER_PAYLOAD',
  'MISSING_REQUIRED_FIELD',
  'DELIVERY_WINDOW_INVALID',
];
const LEAKS =
  /\bat \S+\.(ts|js):\d+|node_modules|select |insert into|update \S+ set|syntax error|relation "|stack/i;

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    "'; drop table partners; --",
    '{{7*7}}',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '\u0000',
    '𝕏'.repeat(500),
    'x'.repeat(70_000),
    '1e309',
    '__proto__',
    'constructor',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
// JSON values of any shape, deeply nested ones included. The keys name real fields, but never
// `amount_ghs` alone: `{"amount_ghs": 5}` is a valid top-up, and random input must never be one
// (each field's hostile values are the next test's job).
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostile,
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(
    fc.oneof(
      fc.string(),
      fc.constantFrom(
        'order_reference',
        'customer',
        'payment',
        'items',
        'orders',
        'client_reference',
        'order_id',
        '__proto__',
      ),
    ),
    tie('value'),
    { maxKeys: 6 },
  ),
})).value;
const deep = fc.integer({ min: 50, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n));

let p: TestPlatform;
let staging: PartnerSetup;
let production: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  staging = await createPartner(p, {
    scopes: ['*', 'safe:write', 'delivery:wallet:topup'],
    rateLimits: LIMITS,
  });
  production = await createPartner(p, {
    environment: 'production',
    scopes: ['*', 'safe:write', 'delivery:wallet:topup', 'delivery:wallet:spend', 'payouts:read'],
    rateLimits: LIMITS,
  });
});
afterAll(() => p.close());

/** Row counts of every table a request could write, in one round trip. */
async function counts(): Promise<Record<string, number>> {
  return (
    await p.app.platform.db.query<Record<string, number>>(
      `select ${TABLES.map((t) => `(select count(*)::int from ${t}) as ${t}`).join(', ')}`,
    )
  )[0]!;
}

function expectSafe(status: number, text: string, what: string): void {
  expect(status, what).toBeLessThan(500);
  expect(text, what).not.toMatch(LEAKS);
}

describe('hostile input', () => {
  it('never answers 5xx, leaks internals, or changes state for any body, query or header sent to any operation', async () => {
    const before = await counts();
    const accepted: string[] = [];
    for (const op of p.app.platform.operations) {
      for (const who of [staging, production]) {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              jsonValue.map((v) => JSON.stringify(v)),
              deep,
              fc.string(),
            ),
            fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), {
              maxKeys: 3,
            }),
            async (raw, query) => {
              const res = await who.client.send(op.method, op.path, {
                rawBody: op.method === 'POST' ? raw : undefined,
                query: op.method === 'GET' ? query : undefined,
              });
              expectSafe(res.status, JSON.stringify(res.body), `${op.id} ${raw.slice(0, 80)}`);
              // A batch answers 200 even when every item failed; only an item that succeeded is a write.
              const results = (res.body as { results?: Array<{ ok: boolean }> }).results;
              const wrote = results ? results.some((r) => r.ok) : res.status < 300;
              if (wrote && op.access === 'write') accepted.push(`${op.id} ${raw.slice(0, 200)}`);
            },
          ),
          // Always tried: a batch of junk items (answered 200 with every item failed, once a CI flake).
          { numRuns: 25, examples: [['{"orders":["z=56++l",null,{}]}', {}]] },
        );
      }
    }
    // Writes only change state when accepted; random input is never a valid write here.
    expect(accepted).toEqual([]);
    expect(await counts()).toEqual(before);
  }, 120_000);

  it('refuses control characters, lone surrogates and impossible dates in every field of every operation, and survives extreme numbers', async () => {
    type Answer = {
      status: string;
      code: string;
      request_id: string;
      details?: Array<{ field: string }>;
      results?: Array<{ status_code: number; code?: string; message?: string }>;
    };
    let fields = 0;
    for (const op of p.app.platform.operations) {
      const documented = errorCodesByStatus(op as Operation);
      for (const shape of shapesOf(op as Operation)) {
        if (shape.fields.length === 0) continue;
        fields += shape.fields.length;
        const check = async (field: Field, value: string) => {
          const before = await counts();
          // The sandbox's own operations (test clocks) refuse production keys before reading the body.
          const who = (op as Operation).stagingOnly ? staging : production;
          const res = await who.client.send<Answer>(
            op.method,
            op.path,
            requestFor(shape, field, value),
          );
          const what = `${op.id} ${shape.where} ${dotted(field.path)} = ${JSON.stringify(value)}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
          expectSafe(res.status, JSON.stringify(res.body), what);
          if (res.status >= 400) {
            expect(documented.get(res.status) ?? [], what).toContain(res.body.code);
            expect(res.headers['x-request-id'], what).toBe(res.body.request_id);
          }
          const item = res.body.results?.[0];
          for (const r of res.body.results ?? []) expect(r.status_code, what).toBeLessThan(500);
          if (mustRefuse(shape, field, value)) {
            if (item) {
              // A bulk answer: the item (orders.0) fails alone, its message naming the field within it.
              expect([item.status_code, VALIDATION_CODES.includes(item.code!)], what).toEqual([
                400,
                true,
              ]);
              expect(item.message, what).toContain(dotted(field.path.slice(2)));
            } else {
              expect([res.status, VALIDATION_CODES.includes(res.body.code)], what).toEqual([
                400,
                true,
              ]);
              expect(
                res.body.details?.map((d) => d.field),
                what,
              ).toContain(dotted(field.path));
            }
          }
          // A refused request (or a batch whose items all failed) changes nothing.
          const refused =
            res.status >= 400 ||
            (res.body.results ?? [{ status_code: 200 }]).every((r) => r.status_code >= 400);
          if (refused) expect(await counts(), what).toEqual(before);
        };
        const examples = shape.fields.flatMap((field) =>
          mustTry(field).map((value) => [{ field, value }] as [{ field: Field; value: string }]),
        );
        await fc.assert(
          fc.asyncProperty(
            fc
              .constantFrom(...shape.fields)
              .chain((field) => hostileValue(field).map((value) => ({ field, value }))),
            ({ field, value }) => check(field, value),
          ),
          { examples, numRuns: examples.length + 2 * shape.fields.length },
        );
      }
    }
    // The schemas were walked: a change that hides the fields from this test fails here.
    expect(fields).toBeGreaterThan(60);
  }, 240_000);

  it('refuses hostile signing headers with 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            'x-api-key': hostile,
            'x-timestamp': hostile,
            'x-nonce': hostile,
            'x-signature': hostile,
            authorization: hostile,
          },
          { requiredKeys: [] },
        ),
        async (headers) => {
          const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
          let res: Response;
          try {
            res = await p.fetch(`${p.url}/api/v1/delivery/health`, { headers: sent });
          } catch {
            return; // the HTTP client itself refuses values that cannot be sent as headers
          }
          const text = await res.text();
          expectSafe(res.status, text, JSON.stringify(sent).slice(0, 120));
          expect(res.status).toBeGreaterThanOrEqual(400);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('bounds bodies and nesting', async () => {
    const huge = await staging.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      rawBody: `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    });
    expect([huge.status, huge.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const nested = await staging.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      rawBody: '['.repeat(100_000) + ']'.repeat(100_000),
    });
    expect(nested.status).toBe(400);
  });
});
