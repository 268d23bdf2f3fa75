import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors.ts';
import { translateDbError } from '../db/sqlstate.ts';
import { MEDIA_TYPE_HINT } from './body.ts';
import type { Operation } from './operation.ts';
import { summarize, toIssues } from './validation.ts';

const notFound = (request: FastifyRequest) =>
  errors.notFound(`There is no operation ${request.method} ${request.url.split('?')[0]}.`);

function operationOf(request: FastifyRequest): Operation | undefined {
  return (request.routeOptions.config as { operation?: Operation } | undefined)?.operation;
}

/** Maps anything thrown to the one error body; unexpected errors are logged and never leak. */
function toAppError(err: unknown, request: FastifyRequest): AppError {
  const translated = translateDbError(err);
  if (translated instanceof AppError) return translated;
  const fe = err as FastifyError;
  if (fe.validation) {
    const issues = toIssues(fe.validation as never);
    const custom =
      fe.validationContext === 'body' ? operationOf(request)?.validationError?.(issues) : undefined;
    const details = issues.map(({ field, issue }) => ({ field, issue }));
    if (custom) return new AppError(400, custom.code, custom.message, details);
    return errors.validation(summarize(issues), details);
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge('The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.invalidJson('The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType(MEDIA_TYPE_HINT);
    case 'FST_ERR_BAD_URL':
      return errors.badRequest('The request path is not valid percent-encoding.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // No id or token is that long: nothing can be at this path.
      return notFound(request);
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return errors.badRequest('The request could not be read.');
  }
  request.log.error({ err }, 'unexpected error');
  return errors.internal(
    'Something went wrong on our side; the request id helps support find out what.',
  );
}

/** The one error body. */
export function errorBody(error: AppError, requestId: string): Record<string, unknown> {
  return {
    status: 'error',
    code: error.code,
    message: error.message,
    request_id: requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  // Set here too: errors Fastify raises before routing skip the onRequest hook that sets it.
  reply.header('x-request-id', reply.request.id);
  return reply.code(error.statusCode).send(errorBody(error, reply.request.id));
}

/** Answers anything thrown, and Fastify's own errors before routing (bad URL encoding, over-long path parameters). */
export function handleError(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const error = toAppError(err, request);
  if (error.statusCode >= 500) request.log.warn({ code: error.code }, error.message);
  return sendError(reply, error);
}

/** `unmatched` times the requests no route matches (the 404 handler has no onResponse hook of its own). */
export function installErrorHandling(
  app: FastifyInstance,
  unmatched: (status: number, seconds: number) => void,
): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, notFound(request));
    unmatched(reply.statusCode, reply.elapsedTime / 1000);
  });
}
