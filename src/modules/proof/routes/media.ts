import type { FastifyInstance } from 'fastify';
import type { ProofService } from '../service.ts';

const NOT_FOUND = 'Not found.\n';

/**
 * `GET /media/proofs/:id?exp=…&sig=…`: a proof image behind a signed, expiring link (what orders.get
 * and the dashboard hand out). A bad, expired, tampered or unknown link all answer the same 404.
 */
export function registerMediaRoute(app: FastifyInstance, proofs: ProofService): void {
  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    '/media/proofs/:id',
    async (request, reply) => {
      const found = await proofs.openSigned(
        request.params.id,
        request.query.exp,
        request.query.sig,
      );
      reply.headers({
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      if (!found) return reply.code(404).type('text/plain; charset=utf-8').send(NOT_FOUND);
      return reply
        .type(found.contentType)
        .header('content-disposition', 'inline')
        .send(found.bytes);
    },
  );
}
