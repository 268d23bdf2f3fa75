import type { FastifyInstance } from 'fastify';
import { errors } from '../../../platform/errors.ts';
import type { PayoutSender } from '../sender.ts';

/**
 * The transfer provider's webhooks (public) at /webhooks/transfers/<provider>: each is a hint,
 * verified by its signature, that makes us ask the provider the transfer's status now.
 */
export function registerTransferWebhook(app: FastifyInstance, sender: PayoutSender, provider: string): void {
  app.post(`/webhooks/transfers/${provider}`, async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
    if ((await sender.hint(raw, request.headers)) === 'invalid') throw errors.validation('Not a transfer webhook this endpoint understands (bad signature or another event).');
    return { status: 'ok' };
  });
}
