import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * Tracing through the OpenTelemetry API alone: until an SDK is registered (platform/tracing-sdk.ts,
 * loaded only when configured) nothing here makes a span, so the cost of tracing off is a flag
 * check. Requests, transactions within them, webhook deliveries and gateway calls make spans, and
 * outgoing calls carry the W3C `traceparent` of theirs.
 */
export { SpanKind };

let tracer = trace.getTracer('partner-platform');
let active = false;

/**
 * Called by the SDK once it is registered, and again when it shuts down. The tracer is asked for
 * again each time: one taken before an SDK was unregistered would still feed that SDK's provider.
 */
export function markTracingActive(on = true): void {
  active = on;
  tracer = trace.getTracer('partner-platform');
}

export function tracingActive(): boolean {
  return active;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The context to continue (a stored traceparent); the active one by default. */
  parent?: Context;
  /** Make the span only inside a trace already under way (no lone root spans from background work). */
  onlyInTrace?: boolean;
}

/**
 * Runs `fn` in a span of its own, active for everything `fn` starts; the span ends when `fn`
 * settles and records a thrown error. Without tracing, or outside a trace with `onlyInTrace`,
 * `fn` just runs (with no span).
 */
export function inSpan<T>(
  name: string,
  opts: SpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const parent = opts.parent ?? context.active();
  if (!active || (opts.onlyInTrace && !trace.getSpan(parent))) return fn(undefined);
  return tracer.startActiveSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Starts a span that the caller ends (a request, from its first hook to its last). */
export function startSpan(name: string, opts: SpanOptions): Span {
  return tracer.startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes },
    opts.parent ?? context.active(),
  );
}

/**
 * Records an HTTP exchange's status on its span, failed from `errorFrom` on (500 for a server,
 * 400 for a client); a null status, no answer at all, is a failure too.
 */
export function recordHttpStatus(
  span: Span | undefined,
  statusCode: number | null,
  errorFrom: number,
): void {
  if (!span) return;
  if (statusCode !== null) span.setAttribute('http.response.status_code', statusCode);
  if (statusCode === null || statusCode >= errorFrom)
    span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Runs `fn` with `span` active, so that what it starts belongs to the span. */
export function withSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** The context that incoming headers (a caller's `traceparent`) name, or a new trace's. */
export function contextFromHeaders(
  headers: Record<string, string | string[] | undefined>,
): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The active span's `traceparent`, stored with work done later (a webhook event) so it continues the trace. */
export function currentTraceparent(): string | null {
  if (!active) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context a stored `traceparent` names. */
export function contextFromTraceparent(traceparent: string | null): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** Adds the active span's `traceparent` to an outgoing call's headers. */
export function injectTraceHeaders(headers: Record<string, string>): void {
  if (active) propagation.inject(context.active(), headers);
}
