import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorCompiler } from '../../../src/platform/http/validation.ts';
import {
  ADMIN_TOKEN,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { closed, deref } from '../../helpers/openapi.ts';
import { EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import { decide, walletPartner } from '../../wallet/helpers.ts';

type Doc = Record<string, any>;
type Json = Record<string, any>;

// The compiler the server mounts (src/platform/http/validation.ts): bodies as sent, queries coerced.
const compile = validatorCompiler();
function problems(
  schema: object,
  value: unknown,
  httpPart: 'body' | 'querystring' = 'body',
): unknown {
  const validate = compile({ schema, httpPart, method: 'POST', url: '/docs-test' }) as ((
    v: unknown,
  ) => boolean) & { errors?: unknown };
  // useDefaults would fill defaults into the example itself.
  return validate(structuredClone(value)) ? null : validate.errors;
}

function operations(doc: Doc): Array<{ key: string; path: string; method: string; op: Json }> {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      path,
      method,
      op,
    })),
  );
}

const json = (part: Json | undefined) => part?.content?.['application/json'];

describe('examples in the OpenAPI documents', () => {
  let p: TestPlatform;
  let doc: Doc;
  let admin: Doc;
  beforeAll(async () => {
    p = await startPlatform();
    doc = await (await p.fetch(`${p.url}/openapi.json`)).json();
    admin = await (
      await p.fetch(`${p.url}/admin/openapi.json`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json();
  });
  afterAll(() => p?.close());

  it('every operation with a body has a request example, and every one validates with the server body compiler', () => {
    for (const { key, op } of [...operations(doc), ...operations(admin)]) {
      const body = json(op.requestBody);
      if (!body) continue;
      const examples = Object.entries<Json>(body.examples ?? {});
      expect(examples.length, `${key} has no request example`).toBeGreaterThan(0);
      for (const [name, e] of examples)
        expect(problems(body.schema, e.value), `${key} request example ${name}`).toBeNull();
    }
  });

  it('query parameter examples validate with the server query compiler', () => {
    for (const op of p.app.platform.operations.filter((o) => o.querystring)) {
      const params = doc.paths[op.path][op.method.toLowerCase()].parameters as Json[];
      const query = Object.fromEntries(
        params.filter((q) => q.example !== undefined).map((q) => [q.name, String(q.example)]),
      );
      expect(problems(op.querystring!, query, 'querystring'), op.id).toBeNull();
    }
  });

  it('every partner operation has a success example that validates against its documented response, closed', () => {
    for (const { key, op } of operations(doc)) {
      const [, success] = Object.entries<Json>(op.responses).find(([status]) => /^2/.test(status))!;
      const examples = Object.entries<Json>(json(success).examples ?? {});
      expect(examples.length, `${key} has no response example`).toBeGreaterThan(0);
      for (const [name, e] of examples)
        expect(
          problems(closed(json(success).schema), e.value),
          `${key} response example ${name}`,
        ).toBeNull();
    }
  });

  it('every error example is a valid error body whose code its status documents', () => {
    const errorSchema = closed(deref(doc, doc.components.schemas.Error));
    for (const [code, e] of Object.entries<Json>(doc.components.examples)) {
      expect(problems(errorSchema, e.value), code).toBeNull();
      expect(e.value.code).toBe(code);
    }
    for (const { key, op } of operations(doc)) {
      for (const [status, res] of Object.entries<Json>(op.responses)) {
        if (!/^[45]/.test(status)) continue;
        const schema = deref(doc, json(res).schema);
        for (const [code, e] of Object.entries<Json>(deref(doc, json(res).examples)))
          expect(problems(schema, e.value), `${key} ${status} ${code}`).toBeNull();
      }
    }
  });
});

describe('real responses match the documented schemas', () => {
  let p: TestPlatform;
  let doc: Doc;
  let s: PartnerSetup;
  const checked = new Set<string>();

  /** Sends a signed request and checks the answer against the document: status, body (closed), headers. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    client = s.client,
  ): Promise<Json> {
    const res = await client.send<Json>(method, path, body === undefined ? {} : { body });
    const op = doc.paths[path]?.[method.toLowerCase()];
    expect(op, `${method} ${path} undocumented`).toBeDefined();
    const documented = op.responses[String(res.status)];
    expect(
      documented,
      `${method} ${path} answered an undocumented ${res.status}: ${JSON.stringify(res.body)}`,
    ).toBeDefined();
    if (res.status < 300) {
      expect(
        problems(closed(json(documented).schema), res.body),
        `${method} ${path} ${res.status}`,
      ).toBeNull();
      for (const h of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
        expect(res.headers[h], h).toBeDefined();
      checked.add(op.operationId);
    } else {
      expect(
        problems(closed(deref(doc, doc.components.schemas.Error)), res.body),
        `${method} ${path} ${res.status}`,
      ).toBeNull();
      expect(json(documented).schema.allOf[1].properties.code.enum).toContain(res.body.code);
    }
    return res.body;
  }

  beforeAll(async () => {
    p = await startPlatform();
    doc = await (await p.fetch(`${p.url}/openapi.json`)).json();
    s = await createPartner(p);
  });
  afterAll(() => p?.close());

  it('health, estimate and locations.list', async () => {
    await call('GET', '/api/v1/delivery/health');
    await call('GET', '/api/v1/safe-catalog/health');
    await call('POST', '/api/v1/delivery/orders.estimate', {
      delivery_location: { coordinates: EAST_LEGON },
    });
    await call('POST', '/api/v1/delivery/orders.estimate', {
      delivery_location: { coordinates: { lat: 51.5, lng: -0.12 } },
      priority: 'cargo',
    });
    await call('POST', '/api/v1/delivery/locations.list', {});
    await call('POST', '/api/v1/delivery/locations.list', {
      region: 'greater accra',
      include_coordinates: true,
    });
  });

  it('an order through create, get, track, operator moves, cancel', async () => {
    const created = await call('POST', '/api/v1/delivery/orders.create', orderBody());
    const id = created.data.order_details.order_id;
    await call(
      'POST',
      '/api/v1/delivery/orders.create',
      orderBody({
        delivery: { address: 'Ring Road', city: 'Accra', region: 'Greater Accra' },
        payment: { amount: 30 },
      }),
    );
    await call('POST', '/api/v1/delivery/orders.get', { order_id: id });
    await call('POST', '/api/v1/delivery/orders.track', { order_id: id });
    expect(
      (await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'accepted' })).status,
    ).toBe(200);
    await call('POST', '/api/v1/delivery/orders.track', { order_id: id });
    await call('POST', '/api/v1/delivery/orders.cancel', {
      order_id: id,
      reason: 'Customer changed their mind',
    });
    const after = await call('POST', '/api/v1/delivery/orders.get', { order_id: id });
    expect(after.data.status).toBe('cancelled');
    await call('POST', '/api/v1/delivery/orders.track', { order_id: id });
    expect((await call('POST', '/api/v1/delivery/orders.cancel', { order_id: id })).code).toBe(
      'INVALID_ORDER_STATUS',
    );
  });

  it('bulk, with one item failing alone', async () => {
    const body = await call('POST', '/api/v1/delivery/orders.create_bulk', {
      orders: [orderBody(), orderBody({ payment: { payer: 'partner' } }), { item: 'no reference' }],
    });
    expect(body.summary).toEqual({ total: 3, created: 1, failed: 2 });
  });

  it('errors: unknown order, invalid body, missing key, staging key on a production-only operation', async () => {
    expect((await call('POST', '/api/v1/delivery/orders.get', { order_id: 'dlv_nope' })).code).toBe(
      'ORDER_NOT_FOUND',
    );
    expect(
      (await call('POST', '/api/v1/delivery/orders.create', orderBody({ item: undefined }))).code,
    ).toBe('MISSING_REQUIRED_FIELD');
    expect((await call('POST', '/api/v1/delivery/locations.list', { colour: 'blue' })).code).toBe(
      'VALIDATION_ERROR',
    );
    const unsigned = await p.fetch(`${p.url}/api/v1/delivery/health`);
    expect(unsigned.status).toBe(401);
    const body = await unsigned.json();
    expect(
      doc.paths['/api/v1/delivery/health'].get.responses['401'].content['application/json'].schema
        .allOf[1].properties.code.enum,
    ).toContain(body.code);
    const production = p.app.platform.operations.find((o) => o.productionOnly);
    if (production)
      expect(
        (await call(production.method, production.path, production.body ? {} : undefined)).code,
      ).toBe('PRODUCTION_KEY_REQUIRED');
  });

  it('wallet: balance, top-up through the sandbox checkout, verify pending then credited, a wallet-funded order', async () => {
    const w = await walletPartner(p);
    await call('GET', '/api/v1/delivery/wallet.balance', undefined, w.client);
    const topup = (
      await call('POST', '/api/v1/delivery/wallet.topup.initiate', { amount_ghs: 100 }, w.client)
    ).data;
    expect(
      (
        await call(
          'POST',
          '/api/v1/delivery/wallet.topup.verify',
          { client_reference: topup.client_reference },
          w.client,
        )
      ).data.state,
    ).toBe('pending');
    expect(await decide(topup.checkout_url, 'pay')).toBe(200);
    // The sandbox's payment callback may credit first: then verify answers already_credited.
    expect(['credited', 'already_credited']).toContain(
      (
        await call(
          'POST',
          '/api/v1/delivery/wallet.topup.verify',
          { client_reference: topup.client_reference },
          w.client,
        )
      ).data.state,
    );
    expect(
      (
        await call(
          'POST',
          '/api/v1/delivery/wallet.topup.verify',
          { client_reference: topup.client_reference },
          w.client,
        )
      ).data.state,
    ).toBe('already_credited');
    expect(
      (
        await call(
          'POST',
          '/api/v1/delivery/wallet.topup.verify',
          { client_reference: 'serviceD_WA0000000000000000' },
          w.client,
        )
      ).code,
    ).toBe('TOPUP_NOT_FOUND');
    await call(
      'POST',
      '/api/v1/delivery/orders.create',
      orderBody({ payment: { payer: 'partner' } }),
      w.client,
    );
  });

  it('sampled a real success answer of each of these operations', () => {
    const sampled = [
      'delivery.health',
      'safe-catalog.health',
      'delivery.orders.create',
      'delivery.orders.create_bulk',
      'delivery.orders.get',
      'delivery.orders.track',
      'delivery.orders.cancel',
      'delivery.orders.estimate',
      'delivery.locations.list',
      'delivery.wallet.balance',
      'delivery.wallet.topup.initiate',
      'delivery.wallet.topup.verify',
    ];
    for (const id of sampled)
      expect(
        p.app.platform.operations.find((o) => o.id === id)?.response,
        `${id} documents no response schema`,
      ).toBeDefined();
    expect([...checked].sort()).toEqual(expect.arrayContaining(sampled));
  });
});
