import { describe, expect, it } from 'vitest';
import { tracingActive } from '../../../src/platform/tracing.ts';
import { startPlatform } from '../../helpers/harness.ts';
import { Receiver, until } from '../../webhooks/receiver.ts';

// Its own file: the SDK registers once per process, and here the app registers it from its settings.
describe('tracing configured by OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('loads the SDK and sends the spans as OTLP/HTTP JSON to <endpoint>/v1/traces, flushed at close', async () => {
    const collector = await new Receiver().start();
    try {
      const p = await startPlatform({
        socket: false,
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/otlp/`,
          OTEL_SERVICE_NAME: 'pp-under-test',
        },
      });
      expect((await p.fetch(`${p.url}/healthz`)).status).toBe(200);
      await p.close();
      // Closing the app unregisters the SDK: a later app in this process starts untraced.
      expect(tracingActive()).toBe(false);
      await until(() => collector.on('/otlp/v1/traces').length > 0);
      const [sent] = collector.on('/otlp/v1/traces');
      expect(sent!.headers['content-type']).toBe('application/json');
      const [batch] = JSON.parse(sent!.body).resourceSpans;
      expect(batch.resource.attributes).toContainEqual({
        key: 'service.name',
        value: { stringValue: 'pp-under-test' },
      });
      expect(
        batch.scopeSpans.flatMap((s: { spans: Array<{ name: string }> }) =>
          s.spans.map((x) => x.name),
        ),
      ).toContain('GET /healthz');
    } finally {
      await collector.close();
    }
  });
});
