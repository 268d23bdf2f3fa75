import type { FastifyInstance } from 'fastify';
import type { PaymentGateway } from './gateway.ts';
import { pageHeaders } from '../../platform/http/html.ts';

/**
 * Gateway callbacks (public): each one is only a hint to check the gateway now; the credit
 * follows the gateway's status check, never the callback's own words.
 */
export function registerPaymentCallbacks(app: FastifyInstance, gateways: readonly PaymentGateway[], handlers: Array<(ref: string) => Promise<void>>): void {
  for (const gateway of gateways) {
    app.post(`/webhooks/payments/${gateway.name}`, async (request, reply) => {
      const notice = gateway.parseCallback(request.headers, Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
      if (!notice) return reply.code(400).send({ status: 'error', code: 'VALIDATION_ERROR', message: 'Not a callback this endpoint understands.', request_id: request.id });
      for (const handle of handlers) await handle(notice.clientReference);
      return { status: 'ok' };
    });
  }
  app.get('/checkout/complete', async (_request, reply) =>
    reply
      .headers(pageHeaders())
      .send('<!doctype html><html lang="en"><meta charset="utf-8"><title>Payment received</title><body style="font-family:system-ui,sans-serif;padding:2rem"><h1>Thank you</h1><p>Your payment is being confirmed. You can close this window.</p></body></html>'),
  );
}
