import type { FastifyInstance } from 'fastify';
import { registerGatewayCallback } from './gateway-callback.ts';
import type { MaskedCalls } from './masked-calls.ts';

/** The path the voice provider calls; the secret is its credential. */
export const voiceCallbackPath = (secret: string) => `/voice/africastalking/${secret}`;

/**
 * `POST /voice/africastalking/{secret}`: Africa's Talking's voice callback for calls to our masked
 * number (form-encoded), answered with its XML actions. Registered only with masked calls
 * configured.
 */
export function registerVoiceCallback(
  app: FastifyInstance,
  calls: MaskedCalls,
  secret: string,
): void {
  registerGatewayCallback(app, {
    url: '/voice/africastalking/:secret',
    secret,
    // Africa's Talking sends more (direction, destinationNumber, …), which we do not need.
    fields: {
      isActive: { max: 1 },
      sessionId: { max: 128 },
      callerNumber: { max: 32 },
      // Far more than a code; a caller holding a key down is not a phone number either.
      dtmfDigits: { max: 32 },
    },
    required: ['sessionId', 'callerNumber'],
    contentType: 'application/xml; charset=utf-8',
    answer: (fields) => calls.answer(fields),
  });
}
