import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type TracingHandle } from '../../../src/platform/tracing-sdk.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { initiate, walletPartner } from '../../wallet/helpers.ts';
import { Receiver, until } from '../../webhooks/receiver.ts';

// The SDK as TRACING=otlp registers it, with spans kept in memory instead of sent.
const exporter = new InMemorySpanExporter();
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

let tracing: TracingHandle | undefined;
let p: TestPlatform;
let rx: Receiver;
let hubtel: FakeHubtel;
beforeAll(async () => {
  tracing = await startTracing(
    { serviceName: 'partner-platform-test', endpoint: 'http://127.0.0.1:1/unused' },
    exporter,
  );
  rx = await new Receiver().start();
  hubtel = await startFakeHubtel();
  p = await startPlatform({
    socket: false,
    env: {
      WEBHOOK_DISPATCHER: 'on',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_LOCAL_DESTINATIONS: 'on',
      ...hubtelEnv(hubtel, 2000),
    },
  });
});
afterAll(async () => {
  await p?.close();
  await rx?.close();
  await hubtel?.close();
  await tracing?.shutdown();
});

const spans = () => exporter.getFinishedSpans();
const serverSpan = (route: string) =>
  spans().find((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === route);
const childrenOf = (parent: ReadableSpan, name: string) =>
  spans().filter(
    (s) => s.name === name && s.parentSpanContext?.spanId === parent.spanContext().spanId,
  );

describe('tracing', () => {
  it("makes a span per request with its transactions inside, and a webhook delivery continues the request's trace with a traceparent", async () => {
    const s = await createPartner(p);
    expect(
      (await p.admin('PATCH', `/apps/${s.appId}`, { webhook_url: `${rx.url}/traced` })).status,
    ).toBe(200);
    const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    expect(created.status).toBe(201);
    await until(() => rx.on('/traced').length >= 1);

    const request = serverSpan('/api/v1/delivery/orders.create');
    expect(request?.name).toBe('delivery.orders.create');
    expect(request?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 201,
      'partner_platform.request_id': created.headers['x-request-id'],
    });
    // A recipient-paid create is one autocommit statement; a cancel is a transaction.
    const orderId = created.body.data.order_details.order_id;
    expect(
      (
        await s.client.send<any>('POST', '/api/v1/delivery/orders.cancel', {
          body: { order_id: orderId },
        })
      ).status,
    ).toBe(200);
    expect(
      childrenOf(serverSpan('/api/v1/delivery/orders.cancel')!, 'db.transaction').length,
    ).toBeGreaterThanOrEqual(1);

    const [, traceId, spanId] =
      TRACEPARENT.exec(String(rx.on('/traced')[0]!.headers.traceparent)) ?? [];
    expect(traceId).toBe(request!.spanContext().traceId);
    await until(() => spans().some((x) => x.spanContext().spanId === spanId));
    const delivery = spans().find((x) => x.spanContext().spanId === spanId)!;
    expect([
      delivery.name,
      delivery.kind,
      delivery.attributes['http.response.status_code'],
    ]).toEqual(['webhook.deliver', SpanKind.CLIENT, 200]);
  });

  it("continues a caller's trace", async () => {
    const caller = `00-${'a1'.repeat(16)}-${'b2'.repeat(8)}-01`;
    expect((await p.fetch(`${p.url}/healthz`, { headers: { traceparent: caller } })).status).toBe(
      200,
    );
    const span = spans().find(
      (s) =>
        s.attributes['http.route'] === '/healthz' && s.spanContext().traceId === 'a1'.repeat(16),
    );
    expect(span?.parentSpanContext?.spanId).toBe('b2'.repeat(8));
  });

  it('sends the traceparent of a client span on payment gateway calls', async () => {
    const s = await walletPartner(p);
    await initiate(s, 50);
    const request = serverSpan('/api/v1/delivery/wallet.topup.initiate')!;
    const [gatewayCall] = childrenOf(request, 'hubtel initiate');
    expect(gatewayCall?.kind).toBe(SpanKind.CLIENT);
    const sent = hubtel.requests.filter((r) => r.path === '/items/initiate').at(-1);
    expect(sent?.headers.traceparent).toBe(
      `00-${request.spanContext().traceId}-${gatewayCall!.spanContext().spanId}-01`,
    );
  });
});
