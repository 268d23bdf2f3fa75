import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../platform/errors.ts';
import { sendError } from '../../../platform/http/error-handler.ts';
import { FORM_BODY_LIMIT, FormProblem, parseForm } from '../../../platform/web/form.ts';
import type { UssdTracking } from './ussd.ts';

/** The callback's fields (Africa's Talking also sends networkCode, which we do not need). */
const FIELDS = {
  sessionId: { max: 128 },
  serviceCode: { max: 32 },
  phoneNumber: { max: 32 },
  // What a caller can type in one session is far shorter; more is not a phone.
  text: { max: 200 },
} as const;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the path's secret is the configured one, in time that does not depend on where they differ. */
export const secretMatches = (given: string, secret: string): boolean =>
  timingSafeEqual(digest(given), digest(secret));

/**
 * `POST /ussd/africastalking/{secret}`: Africa's Talking's USSD session callback (form-encoded
 * sessionId, serviceCode, phoneNumber, text), answered text/plain `CON …` or `END …`. The secret in
 * the path is the gateway's credential (the log shows the route pattern, never the path); without
 * USSD_CALLBACK_SECRET the route does not exist.
 */
export function registerUssdCallback(
  app: FastifyInstance,
  tracking: UssdTracking,
  secret: string | undefined,
): void {
  if (!secret) return;
  app.post<{ Params: { secret: string } }>(
    '/ussd/africastalking/:secret',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      if (!secretMatches(request.params.secret, secret))
        return sendError(reply, errors.forbidden('This callback URL is not valid.'));
      let fields: Record<keyof typeof FIELDS, string>;
      try {
        fields = parseForm(request.body, request.headers['content-type'], FIELDS);
      } catch (err) {
        if (!(err instanceof FormProblem)) throw err;
        const problem = err.statusCode === 415 ? errors.unsupportedMediaType : errors.validation;
        return sendError(reply, problem(err.message));
      }
      if (fields.sessionId === '' || fields.phoneNumber === '')
        return sendError(
          reply,
          errors.missingRequiredField('sessionId and phoneNumber are required.'),
        );
      const screen = await tracking.answer(fields);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(screen);
    },
  );
}
