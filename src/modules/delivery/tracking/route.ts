import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../platform/db/index.ts';
import { pageHeaders } from '../../../platform/http/html.ts';
import { ordersRepository } from '../orders/repository.ts';
import { renderNotFoundPage, renderTrackingPage } from './page.ts';

const HEADERS = pageHeaders();

/** Public tracking page at `/track/{token}`, for recipients (no key, unguessable token). */
export function registerTrackingPage(app: FastifyInstance, db: Db): void {
  app.get<{ Params: { token: string } }>('/track/:token', async (request, reply) => {
    const token = request.params.token;
    const found = /^[A-Za-z0-9_-]{16,64}$/.test(token) ? await ordersRepository.findByTrackingToken(db, token) : undefined;
    reply.headers(HEADERS);
    if (!found) return reply.code(404).send(renderNotFoundPage());
    return reply.send(renderTrackingPage(found.order, found.events));
  });
}
