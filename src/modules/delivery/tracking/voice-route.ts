import type { FastifyInstance } from 'fastify';
import { errors } from '../../../platform/errors.ts';
import { sendError } from '../../../platform/http/error-handler.ts';
import { FORM_BODY_LIMIT, FormProblem, parseForm } from '../../../platform/web/form.ts';
import type { MaskedCalls } from './masked-calls.ts';
import { secretMatches } from './ussd-route.ts';

/** The callback's fields we read (Africa's Talking sends more: direction, destinationNumber, …). */
const FIELDS = {
  isActive: { max: 1 },
  sessionId: { max: 128 },
  callerNumber: { max: 32 },
  // Far more than a code; a caller holding a key down is not a phone number either.
  dtmfDigits: { max: 32 },
} as const;

/** The path the voice provider calls; the secret is its credential. */
export const voiceCallbackPath = (secret: string) => `/voice/africastalking/${secret}`;

/**
 * `POST /voice/africastalking/{secret}`: Africa's Talking's voice callback for calls to our masked
 * number (form-encoded), answered with its XML actions. The secret in the path is the provider's
 * credential (the log shows the route pattern, never the path); without masked calls configured
 * the route does not exist.
 */
export function registerVoiceCallback(
  app: FastifyInstance,
  calls: MaskedCalls,
  secret: string,
): void {
  app.post<{ Params: { secret: string } }>(
    '/voice/africastalking/:secret',
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
      if (fields.sessionId === '' || fields.callerNumber === '')
        return sendError(
          reply,
          errors.missingRequiredField('sessionId and callerNumber are required.'),
        );
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await calls.answer(fields));
    },
  );
}
