import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OPERATIONS, PartnerClient, type CreateOrderRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { decide } from '../../wallet/helpers.ts';
import { createShop, saleBody } from '../support.ts';

// The SDK against the document the server publishes: every documented operation has a client
// method (and nothing else does), and what the SDK sends and gets back matches the documented schemas.

interface DocOperation {
  operationId: string;
  requestBody?: { content: { 'application/json': { schema: object } } };
  responses: Record<string, { content?: { 'application/json'?: { schema: object } } }>;
}
interface Exchanged {
  method: string;
  path: string;
  status: number;
  request: unknown;
  response: unknown;
}

let p: TestPlatform;
let doc: { paths: Record<string, Record<string, DocOperation>>; components: object };
let staging: PartnerClient;
let production: PartnerClient;
const exchanged: Exchanged[] = [];

/** A client for `setup` that records every request and answer. */
function recording(setup: PartnerSetup): PartnerClient {
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const res = await fetch(input, init);
    const text = await res.clone().text();
    exchanged.push({
      method: init.method!.toLowerCase(),
      path: new URL(String(input)).pathname,
      status: res.status,
      request: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      response: text ? JSON.parse(text) : undefined,
    });
    return res;
  };
  return new PartnerClient({
    apiKey: setup.apiKey,
    signingSecret: setup.signingSecret,
    baseUrl: p.url,
    fetch: fetchImpl,
  });
}

beforeAll(async () => {
  p = await startPlatform();
  doc = await (await fetch(`${p.url}/openapi.json`)).json();
  const scopes = [
    'delivery:read',
    'delivery:write',
    'delivery:wallet:topup',
    'delivery:wallet:spend',
    'safe:read',
    'safe:write',
    'payouts:read',
  ];
  const [s, prod] = await Promise.all([
    createPartner(p),
    createPartner(p, { environment: 'production', scopes }),
  ]);
  staging = recording(s);
  production = recording(prod);
});
afterAll(() => p.close());

const documented = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

/** The client method at a dotted path, e.g. `delivery.orders.create`. */
const methodAt = (client: PartnerClient, dotted: string): unknown =>
  dotted
    .split('.')
    .reduce<any>((node, key) => (node === undefined ? undefined : node[key]), client);

describe('SDK ↔ /openapi.json', () => {
  it('every documented operation has an OPERATIONS entry with the same method and path, and a client method', () => {
    const ops = documented();
    expect(ops.length).toBeGreaterThanOrEqual(17);
    for (const { path, method, op } of ops) {
      const known = (OPERATIONS as Record<string, (typeof OPERATIONS)[keyof typeof OPERATIONS]>)[
        op.operationId
      ];
      expect(known, `no SDK entry for ${op.operationId}`).toBeDefined();
      expect({ method: known!.method, path: known!.path }).toEqual({ method, path });
      expect(
        typeof methodAt(staging, known!.sdkMethod),
        `${known!.sdkMethod} for ${op.operationId}`,
      ).toBe('function');
    }
    // And the other way: the SDK calls nothing the server does not document.
    expect(Object.keys(OPERATIONS).sort()).toEqual(ops.map((o) => o.op.operationId).sort());
    expect(typeof staging.delivery.orders.getByReference).toBe('function');
  });

  it('requests the SDK sends and answers it gets validate against the documented schemas', async () => {
    // One call (or more) per operation, successes and a few errors.
    const order = orderBody() as CreateOrderRequest;
    await staging.delivery.health();
    await staging.delivery.orders.estimate({
      delivery_location: { coordinates: EAST_LEGON },
      priority: 'cargo',
      order_date: '2030-03-05',
    });
    const id = (await staging.delivery.orders.create(order)).data.order_details.order_id;
    await staging.delivery.orders.create(order).catch(() => undefined); // 409
    await staging.delivery.orders.createBulk([orderBody() as CreateOrderRequest, order]); // the second item fails: duplicate
    await staging.delivery.orders.get(id);
    await staging.delivery.orders.getByReference(order.order_reference);
    await staging.delivery.orders.get('dlv_00000000000000000000000000').catch(() => undefined); // 404
    await staging.delivery.orders.track(id);
    await staging.delivery.locations.list({ zone: 'accra metro', include_coordinates: true });
    await staging.delivery.orders.cancel(id, 'testing');
    const clock = (
      await staging.delivery.testClocks.create(new Date().toISOString(), 'conformance')
    ).data;
    await staging.delivery.orders.create({
      ...(orderBody() as CreateOrderRequest),
      test_clock_id: clock.id,
    });
    await staging.delivery.testClocks.list(10);
    await staging.delivery.testClocks.get(clock.id);
    await staging.delivery.testClocks.advance(
      clock.id,
      new Date(Date.now() + 3_600_000).toISOString(),
    );
    await staging.delivery.testClocks.advance(clock.id, clock.frozen_time).catch(() => undefined); // 400
    await staging.delivery.testClocks.delete(clock.id);
    await production.delivery.testClocks.list().catch(() => undefined); // 403
    await staging.delivery.messages.settings.get();
    await staging.delivery.messages.settings.update({
      messages: { courier_near: true },
      sender_name: 'KenteShop',
      language: 'tw',
    });
    await staging.delivery.messages.settings
      .update({ sender_name: 'Not a sender id!' })
      .catch(() => undefined); // 400
    await staging.delivery.wallet.balance().catch(() => undefined); // 403
    const topup = (await production.delivery.wallet.topup.initiate(40)).data;
    await production.delivery.wallet.topup.initiate(1).catch(() => undefined); // 400
    await production.delivery.wallet.topup.verify(topup.client_reference);
    await decide(topup.checkout_url, 'pay');
    await production.delivery.wallet.topup.verify(topup.client_reference);
    await production.delivery.wallet.balance();
    await production.delivery.orders.create(
      orderBody({ payment: { payer: 'partner' } }) as CreateOrderRequest,
    );

    const shop = await createShop(p);
    await staging.catalog.health();
    await staging.catalog.list({ vendor_id: shop.vendorId, limit: 5 });
    await staging.catalog.get(shop.productId);
    const cod = (await production.catalog.orders.create(saleBody(shop))).data;
    const online = (
      await production.catalog.orders.create(
        saleBody(shop, { payment_method: 'online', reseller_markup_ghs: 10 }),
      )
    ).data;
    await production.catalog.orders.verify(cod.sale_id);
    await production.catalog.orders.verify(online.sale_id);
    await production.catalog.orders.get({ sale_id: online.sale_id });
    await production.catalog.payouts.list({ status: 'paid', limit: 5 });
    await production.catalog.payouts.get('pout_00000000000000000000000000').catch(() => undefined); // 404

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats' CommonJS default export, as src/platform/http/validation.ts calls it.
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const check = (schema: object, value: unknown) => {
      const validate = ajv.compile({ ...schema, components: doc.components });
      return validate(value) ? null : validate.errors;
    };
    const seen = new Set<string>();
    for (const x of exchanged) {
      const op = doc.paths[x.path]?.[x.method];
      expect(op, `${x.method} ${x.path} is not documented`).toBeDefined();
      seen.add(op!.operationId);
      const label = `${op!.operationId} ${x.status}`;
      const requestSchema = op!.requestBody?.content['application/json'].schema;
      // 400s here answer requests made invalid on purpose.
      if (requestSchema && x.request !== undefined && x.status !== 400)
        expect(check(requestSchema, x.request), `request of ${label}`).toBeNull();
      const responseSchema = op!.responses[String(x.status)]?.content?.['application/json']?.schema;
      expect(responseSchema, `${label} is not a documented answer`).toBeDefined();
      expect(
        check(responseSchema!, x.response),
        `answer of ${label}: ${JSON.stringify(x.response)}`,
      ).toBeNull();
    }
    expect([...seen].sort()).toEqual(Object.keys(OPERATIONS).sort());
    expect(exchanged.some((x) => x.status >= 400)).toBe(true);
  });
});
