import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { PaymentGateway } from './gateway.ts';
import { errors } from '../../platform/errors.ts';
import { htmlPage, pageHeaders } from '../../platform/http/html.ts';
import { compileBodyValidator } from '../../platform/http/validation.ts';

/** The reference a callback names, under the same input rules as every request field. */
const noticeProblems = compileBodyValidator(
  Type.Object({ clientReference: Type.String({ minLength: 1, maxLength: 64 }) }),
);

/**
 * Another reader of a gateway's webhook URL: Paystack sends every event of an integration (transfers
 * too) to its one URL, so payouts can take the signed events that are not payments. True when taken.
 */
export type OtherGatewayEvents = (
  gateway: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
) => Promise<boolean>;

/**
 * Gateway callbacks (public): each one is only a hint to check the gateway now; the credit
 * follows the gateway's status check, never the callback's own words.
 */
export function registerPaymentCallbacks(
  app: FastifyInstance,
  gateways: readonly PaymentGateway[],
  handlers: Array<(ref: string) => Promise<void>>,
  otherEvents?: OtherGatewayEvents,
): void {
  for (const gateway of gateways) {
    app.post(`/webhooks/payments/${gateway.name}`, async (request) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const notice = gateway.parseCallback(request.headers, rawBody);
      if (!notice && (await otherEvents?.(gateway.name, request.headers, rawBody)))
        return { status: 'ok' };
      if (!notice) throw errors.validation('Not a callback this endpoint understands.');
      const issues = noticeProblems(notice);
      if (issues.length > 0)
        throw errors.validation(
          'The callback names an invalid client reference.',
          issues.map(({ field, issue }) => ({ field, issue })),
        );
      for (const handle of handlers) await handle(notice.clientReference);
      return { status: 'ok' };
    });
  }
  const complete = htmlPage({
    title: 'Payment received',
    style: 'main{max-width:34rem;margin:0 auto;padding:2rem 1.25rem}',
    body: '<main><h1>Thank you</h1><p>Your payment is being confirmed. You can close this window.</p></main>',
  });
  app.get('/checkout/complete', async (_request, reply) =>
    reply.headers(pageHeaders()).send(complete),
  );
}
