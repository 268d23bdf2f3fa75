import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  onResponseHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { Span } from '@opentelemetry/api';
import { contextFromHeaders, recordHttpStatus, SpanKind, startSpan, withSpan } from '../tracing.ts';
import { routeName } from './operation.ts';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * A server span for every request to a route mounted from now on, continuing the caller's trace
 * when it sends a `traceparent`. Mounted only when tracing is on, so a request pays nothing
 * otherwise. The span is made active where Fastify continues the request (its first hook, and
 * again before the handler, since a request body arrives in the socket's context instead), so
 * transactions and calls the handler makes are its children.
 */
export function traceRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const name = routeName(route);
    const start: onRequestHookHandler = (request, _reply, done) => {
      const span = startSpan(name, {
        kind: SpanKind.SERVER,
        parent: contextFromHeaders(request.headers),
        attributes: {
          'http.request.method': request.method,
          'http.route': route.url,
          'partner_platform.request_id': request.id,
        },
      });
      spans.set(request, span);
      withSpan(span, done);
    };
    const resume: preHandlerHookHandler = (request, _reply, done) => {
      const span = spans.get(request);
      if (span) withSpan(span, done);
      else done();
    };
    const end: onResponseHookHandler = (request, reply, done) => {
      const span = spans.get(request);
      if (span) {
        recordHttpStatus(span, reply.statusCode, 500);
        span.end();
      }
      done();
    };
    route.onRequest = [start, ...[route.onRequest ?? []].flat()];
    route.preHandler = [...[route.preHandler ?? []].flat(), resume];
    route.onResponse = [...[route.onResponse ?? []].flat(), end];
  });
}
