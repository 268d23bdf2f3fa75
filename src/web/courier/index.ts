import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { MAX_PROOF_BYTES } from '../../modules/proof/index.ts';
import { Assets } from '../../platform/web/assets.ts';
import { Views } from '../../platform/web/views.ts';
import { pageScope, refusal, STATIC_DIR, type DashboardDeps } from '../dashboard/index.ts';
import { WebKit } from '../dashboard/kit.ts';
import { registerCourierEarnings } from './earnings.ts';
import { CourierKit, type CourierAppDeps } from './kit.ts';
import { registerCourierLive } from './live.ts';
import { PROOF_UPLOAD_URL, registerProofUpload } from './proof.ts';
import { PUSH_SUBSCRIPTION_URL, registerCourierPush } from './push.ts';
import { json, registerCourierRoutes } from './routes.ts';

export type { CourierAppDeps, CourierPush } from './kit.ts';

// Read from the source tree like the dashboard's (see TEMPLATES_DIR there).
const TEMPLATES_DIR = fileURLToPath(
  new URL('../../../src/web/courier/templates/', import.meta.url),
);

/**
 * The courier app at /courier/: a small installable web app for a courier's phone (sign-in with a
 * code by text message, duty, position), its actions queued on the phone and sent to one endpoint.
 * Its own Fastify scope (error pages, body limit); the dashboard's WebKit does the form checks.
 */
export function registerCourierApp(
  app: FastifyInstance,
  deps: CourierAppDeps,
  dashboard: DashboardDeps,
): void {
  // The dashboard registers the asset routes; these are the same files, so the same URLs.
  const assets = Assets.fromDirectory(STATIC_DIR);
  const views = new Views(TEMPLATES_DIR);
  const kit = new CourierKit(deps, new WebKit(dashboard, views, assets), views, {
    css: assets.url('courier.css'),
    js: assets.url('courier.js'),
    proof: assets.url('courier-proof.js'),
    live: assets.url('courier-live.js'),
    push: assets.url('courier-push.js'),
    draft: assets.url('courier-draft.js'),
  });
  app.register(async (scope) => {
    // The upload and the push subscription are the app script's: a body refused before their
    // handlers (too large) is answered in JSON too.
    pageScope(scope, kit, 'a courier page', (err, request, reply) => {
      const known = refusal(err, request);
      const url = request.routeOptions.url;
      if (!known || (url !== PROOF_UPLOAD_URL && url !== PUSH_SUBSCRIPTION_URL)) return undefined;
      const tooLarge = known.status === 413;
      return json(
        reply,
        known.status,
        tooLarge && url === PROOF_UPLOAD_URL
          ? {
              error: `A proof image must be at most ${MAX_PROOF_BYTES / 1024 / 1024} MB.`,
              code: 'PAYLOAD_TOO_LARGE',
            }
          : {
              error: known.message,
              code: known.code ?? (tooLarge ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST'),
            },
      );
    });
    const origin = new URL(dashboard.publicBaseUrl).origin;
    registerCourierRoutes(scope, kit, origin);
    registerProofUpload(scope, kit, origin);
    registerCourierLive(scope, kit);
    registerCourierPush(scope, kit, origin);
    registerCourierEarnings(scope, kit);
  });
}
