import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors.ts';
import { translateDbError } from '../db/sqlstate.ts';
import type { Operation } from './operation.ts';
import { summarize, toIssues } from './validation.ts';

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
    const custom = fe.validationContext === 'body' ? operationOf(request)?.validationError?.(issues) : undefined;
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
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError(fe.statusCode, 'BAD_REQUEST', 'The request could not be read.');
  }
  request.log.error({ err }, 'unexpected error');
  return errors.internal('Something went wrong on our side; the request id helps support find out what.');
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.statusCode).send({
    status: 'error',
    code: error.code,
    message: error.message,
    request_id: reply.request.id,
    ...(error.details ? { details: error.details } : {}),
  });
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err, request);
    if (error.statusCode >= 500) request.log.warn({ code: error.code }, error.message);
    return sendError(reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, errors.notFound(`There is no operation ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
