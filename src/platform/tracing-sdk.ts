import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { markTracingActive, tracingActive } from './tracing.ts';

export interface TracingSettings {
  serviceName: string;
  /** Where spans go over OTLP/HTTP, e.g. http://collector:4318/v1/traces. */
  endpoint: string;
}

export interface TracingHandle {
  /** Sends the spans still buffered, stops, and unregisters the SDK from the process. */
  shutdown(): Promise<void>;
}

/**
 * Registers the OpenTelemetry SDK for the process: spans batched to the OTLP endpoint, or handed
 * one by one to `exporter` (tests read them from memory). Imported only when tracing is wanted,
 * so a process without it never loads the SDK. Answers undefined when one is already registered.
 */
export async function startTracing(
  settings: TracingSettings,
  exporter?: SpanExporter,
): Promise<TracingHandle | undefined> {
  if (tracingActive()) return undefined;
  const processor = exporter
    ? new SimpleSpanProcessor({ exporter })
    : new BatchSpanProcessor({
        exporter: new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({
          url: settings.endpoint,
        }),
      });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  markTracingActive();
  return {
    // The process's globals go back to the API's no-ops, so an app built later in the same
    // process (a test file after this one, in a worker that runs several) starts untraced.
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
      markTracingActive(false);
    },
  };
}
