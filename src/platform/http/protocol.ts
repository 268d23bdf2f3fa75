import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance, FastifyRequest } from 'fastify';
import { errors, type AppError } from '../errors.ts';
import { ulid } from '../ids.ts';
import { errorBody } from './error-handler.ts';

/**
 * Requests the HTTP layer refuses before any route runs. Node's parser reports its refusals
 * (malformed request line or headers, a header block over 16 KiB, a request that does not
 * arrive in time) through Fastify's clientErrorHandler, which answers with the one error body
 * here; the framing checks Node leaves to the application run first thing on every request.
 */

export const newRequestId = (): string => `req_${ulid()}`;

function parserError(err: ConnectionError): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return errors.headersTooLarge(
        'The request line and headers are larger than 16 KiB; send a shorter URL or fewer headers.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.requestTimeout('The request did not arrive in full in time; send it again.');
    default:
      return errors.badRequest(
        'The request is not well-formed HTTP (request line, headers or body framing).',
      );
  }
}

/** The error body written straight to a connection that has no request or reply object. */
function writeError(app: FastifyInstance, socket: Socket, error: AppError, cause: string): void {
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(error, requestId));
  socket.write(
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Logged so that support can find the request id the client was given.
  app.log.info({ reqId: requestId, code: error.code, cause }, 'request refused before routing');
}

/** Fastify's clientErrorHandler: the parser's refusals, answered on the socket. */
export function answerClientError(
  this: FastifyInstance,
  err: ConnectionError,
  socket: Socket,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this connection cannot be followed by another one.
  const current = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !current?.headersSent)
    writeError(this, socket, parserError(err), err.code);
  socket.destroy(err);
}

const hasBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/** Framing problems of a routed request, answered before authentication as the body size is. */
export function framingProblem(request: FastifyRequest): AppError | undefined {
  // Node's own check (turned off) would answer without the error body.
  if (request.raw.httpVersion === '1.1' && !request.headers.host) {
    return errors.badRequest('HTTP/1.1 requests need a Host header.');
  }
  // Fastify never reads a GET body, so the signature could not cover it: refuse rather than ignore it.
  if (
    (request.method === 'GET' || request.method === 'HEAD') &&
    hasBody(request.headers) &&
    !request.is404
  ) {
    return errors.validation('GET requests carry no body; send parameters in the query string.', [
      { field: '(body)', issue: 'must be empty on GET' },
    ]);
  }
  return undefined;
}

/** Requests Node would answer itself, bypassing the routes. */
export function answerOutsideRoutes(app: FastifyInstance): void {
  // An Expect other than 100-continue would get a bare 417: serve the request as if the header
  // were absent instead (which HTTP allows).
  app.server.on('checkExpectation', (req, res) => app.routing(req, res));
  // CONNECT would be dropped without an answer: it is a method no route defines.
  app.server.on('connect', (req: IncomingMessage, socket: Socket) => {
    writeError(
      app,
      socket,
      errors.notFound(`There is no operation CONNECT ${req.url ?? ''}.`),
      'CONNECT',
    );
    socket.end();
  });
}
