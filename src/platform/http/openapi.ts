import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.ts';
import { pageHeaders } from './html.ts';
import { constantTimeEqual } from '../secrets.ts';
import { buildAdminDocument } from './openapi-admin.ts';
import { buildPartnerDocument, type DocOptions, type OpenApiDocument } from './openapi-document.ts';
import { DOCS_CSP, docsAssets } from './openapi-assets.ts';
import { ReferencePages } from './openapi-pages.ts';
import { renderLandingPage } from './landing.ts';
import type { Operation } from './operation.ts';
import type { WebhookEventDocs } from './openapi-webhooks.ts';

const PAGE_HEADERS = pageHeaders();
// The reference loads its own stylesheet and script (a search box that submits to /docs itself).
const DOCS_HEADERS = { ...PAGE_HEADERS, 'content-security-policy': DOCS_CSP };

/** Built once, on first use: by then every route is mounted (routes cannot be added after ready). */
function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/**
 * Serves the reference, generated from the operations the server mounts and the very schemas it
 * validates with: `GET /openapi.json` (partner API, public), `GET /docs` (that document as HTML pages: an overview with search, and one page per operation),
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
    for (const op of [...app.platform.operations, ...later])
      if (!byId.has(op.id)) byId.set(op.id, op);
    return [...byId.values()];
  };
  const opts: DocOptions = {
    baseUrl: config.publicBaseUrl,
    clockSkewSeconds: pipeline.clockSkewSeconds,
    readsPerMinute: config.rateLimits.readsPerMinute,
    writesPerMinute: config.rateLimits.writesPerMinute,
  };
  const partnerDoc = lazy<OpenApiDocument>(() => buildPartnerDocument(operations(), opts, events));
  const assets = docsAssets();
  const pages = lazy(
    () =>
      new ReferencePages(partnerDoc(), { css: assets.url('docs.css'), js: assets.url('docs.js') }),
  );
  const landing = lazy(() => renderLandingPage(partnerDoc()));

  app.get('/openapi.json', async (_request, reply) =>
    // Public and static: other origins (API explorers, code generators) may read it.
    reply
      .headers({ 'cache-control': 'no-cache', 'access-control-allow-origin': '*' })
      .send(partnerDoc()),
  );
  assets.registerEach(app);
  app.get<{ Querystring: { q?: unknown } }>('/docs', async (request, reply) => {
    const q = typeof request.query.q === 'string' ? request.query.q.trim().slice(0, 200) : '';
    return reply.headers(DOCS_HEADERS).send(pages().index(q || undefined));
  });
  app.get('/docs/authentication', async (_request, reply) =>
    reply.headers(DOCS_HEADERS).send(pages().authentication()),
  );
  app.get('/docs/errors', async (_request, reply) =>
    reply.headers(DOCS_HEADERS).send(pages().errors()),
  );
  app.get<{ Params: { id: string } }>('/docs/:id', async (request, reply) => {
    if (request.params.id === '') return reply.redirect('/docs', 301);
    const html = pages().operation(request.params.id);
    if (html === undefined)
      throw errors.notFound(
        `No operation ${request.params.id}: the reference at /docs lists them all.`,
      );
    return reply.headers(DOCS_HEADERS).send(html);
  });
  app.get('/', async (_request, reply) => reply.headers(PAGE_HEADERS).send(landing()));

  const adminToken = config.adminToken;
  if (adminToken) {
    // Operator routes are not advertised: their document needs the same token as the routes themselves.
    const adminDoc = lazy(() => buildAdminDocument(app.platform.adminRoutes, opts));
    const expected = `Bearer ${adminToken}`;
    app.get('/admin/openapi.json', async (request, reply) => {
      if (!constantTimeEqual(request.headers.authorization ?? '', expected)) {
        throw errors.invalidAdminToken(
          'The operator API needs Authorization: Bearer <ADMIN_TOKEN>.',
        );
      }
      return reply.header('cache-control', 'no-store').send(adminDoc());
    });
  }
}
