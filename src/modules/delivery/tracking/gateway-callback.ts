import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../platform/errors.ts';
import { sendError } from '../../../platform/http/error-handler.ts';
import {
  FORM_BODY_LIMIT,
  type FieldRule,
  type FormFields,
  FormProblem,
  parseForm,
} from '../../../platform/web/form.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the path's secret is the configured one, in time that does not depend on where they differ. */
export const secretMatches = (given: string, secret: string): boolean =>
  timingSafeEqual(digest(given), digest(secret));

/** A secret that travels in a callback URL's path: 24 to 100 URL-safe characters. */
export const CALLBACK_SECRET = /^[A-Za-z0-9_-]{24,100}$/;
export const CALLBACK_SECRET_RULE = '24 to 100 letters, digits, - or _';

export interface GatewayCallback<R extends Record<string, FieldRule>> {
  /** The route, its last segment `:secret`. */
  url: string;
  secret: string;
  /** The form fields read (others the gateway sends are ignored). */
  fields: R;
  /** Fields that must not be empty. */
  required: readonly (keyof R & string)[];
  /** The answer's media type. */
  contentType: string;
  answer(fields: FormFields<R>): Promise<string>;
}

/**
 * A gateway's form-encoded callback (USSD sessions, voice calls): the secret in the path is its
 * credential, compared in constant time (the log shows the route pattern, never the path); a wrong
 * one answers 403, a malformed form 400 or 415 with a code, before anything is looked up. The
 * answer is never cached.
 */
export function registerGatewayCallback<R extends Record<string, FieldRule>>(
  app: FastifyInstance,
  callback: GatewayCallback<R>,
): void {
  app.post<{ Params: { secret: string } }>(
    callback.url,
    { bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      if (!secretMatches(request.params.secret, callback.secret))
        return sendError(reply, errors.forbidden('This callback URL is not valid.'));
      let fields: FormFields<R>;
      try {
        fields = parseForm(request.body, request.headers['content-type'], callback.fields);
      } catch (err) {
        if (!(err instanceof FormProblem)) throw err;
        const problem = err.statusCode === 415 ? errors.unsupportedMediaType : errors.validation;
        return sendError(reply, problem(err.message));
      }
      if (callback.required.some((name) => fields[name] === ''))
        return sendError(
          reply,
          errors.missingRequiredField(`${callback.required.join(' and ')} are required.`),
        );
      return reply
        .header('content-type', callback.contentType)
        .header('cache-control', 'no-store')
        .send(await callback.answer(fields));
    },
  );
}
