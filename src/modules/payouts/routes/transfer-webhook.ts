import type { FastifyInstance } from 'fastify';
import { errors } from '../../../platform/errors.ts';
import type { PayoutSender } from '../sender.ts';

/** Another sender of transfers through the same provider (buyer refunds), told of a signed event about a reference that is no payout. */
export type OtherTransferHints = (
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
) => Promise<unknown>;

/**
 * The transfer provider's webhooks (public) at /webhooks/transfers/<provider>: each is a hint,
 * verified by its signature, that makes us ask the provider the transfer's status now.
 */
export function registerTransferWebhook(
  app: FastifyInstance,
  sender: PayoutSender,
  provider: string,
  others?: OtherTransferHints,
): void {
  app.post(`/webhooks/transfers/${provider}`, async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
    const answer = await sender.hint(raw, request.headers);
    if (answer === 'invalid')
      throw errors.validation(
        'Not a transfer webhook this endpoint understands (bad signature or another event).',
      );
    if (answer === 'unknown') await others?.(raw, request.headers);
    return { status: 'ok' };
  });
}
