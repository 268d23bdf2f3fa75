import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.ts';
import { pageHeaders } from './html.ts';
import { constantTimeEqual } from '../secrets.ts';
import { buildAdminDocument } from './openapi-admin.ts';
import { buildPartnerDocument, type DocOptions, type OpenApiDocument } from './openapi-document.ts';
import { renderReferencePage } from './openapi-html.ts';
import { renderLandingPage } from './landing.ts';
import type { Operation } from './operation.ts';
import type { WebhookEventDocs } from './openapi-webhooks.ts';

const PAGE_HEADERS = pageHeaders();

/** Built once, on first use: by then every route is mounted (routes cannot be added after ready). */
function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/**
 * Serves the reference, generated from the operations the server mounts and the very schemas it
 * validates with: `GET /openapi.json` (partner API, public), `GET /docs` (that document as HTML),
 * `GET /` (a landing page pointing to both) and,
 * when the operator API is on, `GET /admin/openapi.json` (operator API, behind the operator token).
 * `events` are the webhook events the partner document describes.
 */
export function registerApiDocs(app: FastifyInstance, events: WebhookEventDocs): void {
  const { config, pipeline } = app.platform;
  // Operations mounted after this call (registerOperations with app.platform.pipeline) are documented too.
  const later: Operation[] = [];
  app.addHook('onRoute', (route) => {
    const op = (route.config as { operation?: Operation } | undefined)?.operation;
    if (op) later.push(op);
  });
  const operations = (): Operation[] => {
    const byId = new Map<string, Operation>();
    for (const op of [...app.platform.operations, ...later]) if (!byId.has(op.id)) byId.set(op.id, op);
    return [...byId.values()];
  };
  const opts: DocOptions = {
    baseUrl: config.publicBaseUrl,
    clockSkewSeconds: pipeline.clockSkewSeconds,
    readsPerMinute: config.rateLimits.readsPerMinute,
    writesPerMinute: config.rateLimits.writesPerMinute,
  };
  const partnerDoc = lazy<OpenApiDocument>(() => buildPartnerDocument(operations(), opts, events));
  const page = lazy(() => renderReferencePage(partnerDoc()));
  const landing = lazy(() => renderLandingPage(partnerDoc()));

  app.get('/openapi.json', async (_request, reply) =>
    // Public and static: other origins (API explorers, code generators) may read it.
    reply.headers({ 'cache-control': 'no-cache', 'access-control-allow-origin': '*' }).send(partnerDoc()),
  );
  app.get('/docs', async (_request, reply) => reply.headers(PAGE_HEADERS).send(page()));
  app.get('/', async (_request, reply) => reply.headers(PAGE_HEADERS).send(landing()));

  const adminToken = config.adminToken;
  if (adminToken) {
    // Operator routes are not advertised: their document needs the same token as the routes themselves.
    const adminDoc = lazy(() => buildAdminDocument(app.platform.adminRoutes, opts));
    const expected = `Bearer ${adminToken}`;
    app.get('/admin/openapi.json', async (request, reply) => {
      if (!constantTimeEqual(request.headers.authorization ?? '', expected)) {
        throw errors.invalidAdminToken('The operator API needs Authorization: Bearer <ADMIN_TOKEN>.');
      }
      return reply.header('cache-control', 'no-store').send(adminDoc());
    });
  }
}
