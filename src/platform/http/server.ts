import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { errors } from '../errors.ts';
import { logDestination, serializeError, type LogFormat } from '../logger.ts';
import { handleError, installErrorHandling, sendError } from './error-handler.ts';
import { answerClientError, framingProblem, newRequestId } from './protocol.ts';
import { keepRawBodies } from './body.ts';
import { installValidation } from './validation.ts';
import { traceRoutes } from './tracing.ts';
import { tracingActive } from '../tracing.ts';
import { RequestHistogram, timeRoutes, UNMATCHED } from '../metrics/requests.ts';

export interface HttpServerSettings {
  logLevel: string;
  logFormat: LogFormat;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  trustProxy?: boolean | string | string[] | undefined;
}

/** The Fastify instance every process that serves HTTP starts from: logging, limits, timeouts, the one error body. */
export function createHttpServer(
  settings: HttpServerSettings,
  logStream?: NodeJS.WritableStream,
): FastifyInstance {
  return Fastify({
    logger: {
      level: settings.logLevel,
      redact: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers["x-signature"]',
      ],
      serializers: { err: serializeError },
      stream: logStream ?? logDestination(settings.logFormat),
    },
    genReqId: newRequestId,
    requestIdHeader: false,
    // Errors before routing get the one error body too (see protocol.ts).
    clientErrorHandler: answerClientError,
    frameworkErrors: handleError,
    // One line per response is written by the onResponse hook below instead.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: settings.bodyLimitBytes,
    // Slow senders (slow loris) cannot hold a connection: the whole request must arrive in time.
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: 5_000,
    // Node checks request deadlines on this interval (30 s by default, too coarse for the timeout).
    // A missing Host is refused by framingProblem instead, with the error body.
    http: { connectionsCheckingInterval: 1000, requireHostHeader: false },
    return503OnClosing: false,
    // On close, keep-alive connections with no request in flight are closed at once (see the onSend hook).
    forceCloseConnections: 'idle',
    // Only the proxies named in TRUST_PROXY may say who the client is (request.ip).
    trustProxy: settings.trustProxy ?? false,
  });
}

/**
 * Before any route is mounted: every route timed (and traced), bodies kept raw for signatures,
 * validation and the error body installed, one log line per response, and while closing a 503
 * for new requests and `connection: close` on every answer. Returns the request histogram.
 */
export function installRequestHandling(
  app: FastifyInstance,
  bodyLimitBytes: number,
): RequestHistogram {
  const requests = new RequestHistogram();
  timeRoutes(app, requests);
  if (tracingActive()) traceRoutes(app);
  installValidation(app);
  keepRawBodies(app, bodyLimitBytes);
  installErrorHandling(app, requests.recorder(UNMATCHED));

  let closing = false;
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing)
      return sendError(
        reply,
        errors.serviceUnavailable('The server is restarting; retry in a moment.'),
      );
    const problem = framingProblem(request);
    if (problem) return sendError(reply, problem);
  });
  // The line per response exists only at LOG_LEVEL=info or below (the level is fixed at start):
  // above it the hook would still run and build its line on every request, for nothing. A
  // callback hook, not an async one: no promise per request.
  if (['trace', 'debug', 'info'].includes(app.log.level))
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          key: request.auth?.keyId,
        },
        'request',
      );
      done();
    });
  // Every answer sent while shutting down, in-flight ones included, closes its connection: a client
  // kept on keep-alive would hold the process until the connection's idle timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  return requests;
}
