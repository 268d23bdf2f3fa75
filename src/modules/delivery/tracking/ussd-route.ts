import type { FastifyInstance } from 'fastify';
import { registerGatewayCallback } from './gateway-callback.ts';
import type { UssdTracking } from './ussd.ts';

/**
 * `POST /ussd/africastalking/{secret}`: Africa's Talking's USSD session callback (form-encoded
 * sessionId, serviceCode, phoneNumber, text), answered text/plain `CON …` or `END …`. Without
 * USSD_CALLBACK_SECRET the route does not exist.
 */
export function registerUssdCallback(
  app: FastifyInstance,
  tracking: UssdTracking,
  secret: string | undefined,
): void {
  if (!secret) return;
  registerGatewayCallback(app, {
    url: '/ussd/africastalking/:secret',
    secret,
    // Africa's Talking also sends networkCode, which we do not need.
    fields: {
      sessionId: { max: 128 },
      serviceCode: { max: 32 },
      phoneNumber: { max: 32 },
      // What a caller can type in one session is far shorter; more is not a phone.
      text: { max: 200 },
    },
    required: ['sessionId', 'phoneNumber'],
    contentType: 'text/plain; charset=utf-8',
    answer: (fields) => tracking.answer(fields),
  });
}
