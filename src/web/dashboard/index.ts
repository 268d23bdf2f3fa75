import { fileURLToPath } from 'node:url';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { Assets } from '../../platform/web/assets.ts';
import { FORM_BODY_LIMIT, FormProblem } from '../../platform/web/form.ts';
import { Views } from '../../platform/web/views.ts';
import { registerAppRoutes } from './app-routes.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { WebKit, WebRefusal, type DashboardDeps } from './kit.ts';
import { registerActivationRoutes } from './activation.ts';
import { registerOrderRoutes } from './order-routes.ts';
import { registerOrderUploadRoutes } from './order-upload.ts';
import { registerPayoutRoutes } from './payouts.ts';
import { registerSaleRoutes } from './sale-routes.ts';
import { registerTeamRoutes } from './team-routes.ts';
import { registerWebhookRoutes } from './webhooks.ts';
import { registerMessagesRoutes } from './messages.ts';
import { registerWalletRoutes } from './wallet.ts';

export type { DashboardDeps } from './kit.ts';

// Resolved from the package root, which is three levels up from both src/web/dashboard/ and
// dist/web/dashboard/: templates and assets are read from the source tree either way (tsc copies
// no .eta or .css; the Dockerfile copies these two directories).
const ROOT = new URL('../../../', import.meta.url);
export const TEMPLATES_DIR = fileURLToPath(new URL('src/web/dashboard/templates/', ROOT));
export const STATIC_DIR = fileURLToPath(new URL('src/web/static/', ROOT));
/** Libraries served as our own assets (no CDN): uPlot for the wallet's chart. */
const VENDOR_ASSETS = {
  'uplot.js': fileURLToPath(new URL('node_modules/uplot/dist/uPlot.iife.min.js', ROOT)),
  'uplot.css': fileURLToPath(new URL('node_modules/uplot/dist/uPlot.min.css', ROOT)),
};

/** Renders a page in a scope's layout (the dashboard's, the console's, the courier app's). */
interface PageRenderer {
  page(reply: FastifyReply, name: string, data: Record<string, unknown>, status: number): unknown;
}

/** The error page for a failed request in a scope of pages (`what` names them in the log). */
export function errorPage(
  kit: PageRenderer,
  what: string,
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): unknown {
  const known = refusal(err, request);
  if (!known) request.log.error({ err }, `unexpected error on ${what}`);
  else if (known.status >= 500) request.log.warn({ err }, `${what} answered ${known.status}`);
  const { status, message } = known ?? {
    status: 500,
    message: 'Something went wrong on our side. Try again in a moment.',
  };
  const title =
    status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : 'Something is wrong';
  return kit.page(reply, 'error', { title, status, message, requestId: request.id }, status);
}

/**
 * What every scope of pages shares: failures shown as the error page (after `own`, when given),
 * and every form given the small body limit (a route that declares its own, such as an upload, keeps it).
 */
export function pageScope(
  scope: FastifyInstance,
  kit: PageRenderer,
  what: string,
  /** Answers a failure its own way first (a script's JSON endpoint), or leaves it to the error page. */
  own?: (err: unknown, request: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  scope.setErrorHandler(
    (err, request, reply) =>
      own?.(err, request, reply) ?? errorPage(kit, what, err, request, reply),
  );
  scope.addHook('onRoute', (route) => {
    route.bodyLimit ??= FORM_BODY_LIMIT;
  });
}

/** What a failed request shows: a page with a sentence, never a stack trace or JSON. */
export function refusal(
  err: unknown,
  request?: FastifyRequest,
): { status: number; message: string; code?: string } | undefined {
  if (err instanceof WebRefusal || err instanceof FormProblem)
    return { status: err.statusCode, message: err.message };
  // A passing outage (the database busy or away, a conflict with concurrent work): nothing was
  // done, and trying again is the answer; a page (or the courier app's queue) is told so with 503.
  if (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE')
    return {
      status: 503,
      message: 'That could not be done just now, and nothing was changed. Try again in a moment.',
      code: err.code,
    };
  const fe = err as FastifyError;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    // A route with its own limit (the CSV upload) says so in its own words.
    const own = (request?.routeOptions.config as { tooLarge?: unknown } | undefined)?.tooLarge;
    return {
      status: 413,
      message:
        typeof own === 'string'
          ? own
          : `The form is too large (at most ${FORM_BODY_LIMIT / 1024} KiB).`,
    };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return { status: fe.statusCode, message: 'The request could not be read.' };
  return undefined;
}

/**
 * The partner dashboard and its sign-in pages: server-rendered HTML (works without JavaScript),
 * form posts, server-side sessions. Mounted in its own Fastify scope so that its error pages and
 * body limit do not touch the partner API's.
 */
export function registerDashboard(app: FastifyInstance, deps: DashboardDeps): void {
  const assets = Assets.fromDirectory(STATIC_DIR, VENDOR_ASSETS);
  const web = new WebKit(deps, new Views(TEMPLATES_DIR), assets);
  assets.register(app);
  app.register(async (scope) => {
    pageScope(scope, web, 'a web page');
    registerAuthRoutes(scope, web);
    registerTeamRoutes(scope, web);
    registerAppRoutes(scope, web);
    registerOrderUploadRoutes(scope, web);
    registerOrderRoutes(scope, web);
    registerSaleRoutes(scope, web);
    registerActivationRoutes(scope, web);
    registerWebhookRoutes(scope, web, deps.webhooks);
    registerMessagesRoutes(scope, web, deps.messages);
    registerWalletRoutes(scope, web);
    if (deps.payouts) registerPayoutRoutes(scope, web, deps.payouts);
  });
}
