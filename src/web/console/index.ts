import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Assets } from '../../platform/web/assets.ts';
import { Views } from '../../platform/web/views.ts';
import { pageScope, STATIC_DIR, type DashboardDeps } from '../dashboard/index.ts';
import { WebKit } from '../dashboard/kit.ts';
import { registerConsoleActivationRoutes } from './activation-routes.ts';
import { registerConsoleAuditRoutes } from './audit-routes.ts';
import { registerConsoleAuthRoutes } from './auth-routes.ts';
import { registerConsoleCatalogRoutes } from './catalog-routes.ts';
import { registerConsoleCourierRoutes } from './courier-routes.ts';

import { registerConsoleCashRoutes } from './cash-routes.ts';
import { registerConsoleConfirmationRoutes } from './confirmation-routes.ts';
import { registerConsoleDispatchRoutes } from './dispatch-routes.ts';
import { registerConsoleEnrolRoutes } from './enrol-routes.ts';
import { registerConsoleJournalRoutes } from './journal-routes.ts';
import { ConsoleKit, loadOperatorNames, type ConsoleDeps } from './kit.ts';
import { registerConsoleLive } from './live.ts';
import { registerConsoleMoneyRoutes } from './money-routes.ts';
import { registerConsoleOrderRoutes } from './order-routes.ts';
import { registerConsolePayeeRoutes } from './payee-routes.ts';
import { registerConsolePayRoutes } from './pay-routes.ts';
import { registerConsolePayoutRoutes } from './payout-routes.ts';
import { registerConsoleReconciliationRoutes } from './reconciliation-routes.ts';
import { registerConsolePartnerRoutes } from './partner-routes.ts';
import { registerConsoleRefundRoutes } from './refund-routes.ts';
import { registerConsoleSaleRoutes } from './sale-routes.ts';
import { registerConsoleTopupRoutes } from './topup-routes.ts';
import { registerConsoleWebhookRoutes } from './webhook-routes.ts';

export { OPERATOR_SESSION_TIMEOUTS, type ConsoleDeps } from './kit.ts';

// Read from the source tree like the dashboard's (see TEMPLATES_DIR there).
const TEMPLATES_DIR = fileURLToPath(
  new URL('../../../src/web/console/templates/', import.meta.url),
);

/**
 * The operator console at /console: server-rendered pages over the operator services, signed in with
 * email, password and TOTP code, every page checked against the operator's roles. Its own Fastify
 * scope (error pages, form body limit); the dashboard's WebKit does the rendering and form checks.
 */
export function registerConsole(
  app: FastifyInstance,
  deps: ConsoleDeps,
  dashboard: DashboardDeps,
): void {
  // The dashboard registers the asset routes; these are the same files, so the same URLs.
  const assets = Assets.fromDirectory(STATIC_DIR);
  const kit = new ConsoleKit(
    deps,
    new WebKit(dashboard, new Views(TEMPLATES_DIR), assets),
    assets.url('console.css'),
  );
  app.register(async (scope) => {
    pageScope(scope, kit, 'a console page');
    // Pages name operators (the id on hover); the event streams and the signed-out pages need no names.
    scope.addHook('preHandler', async (request) => {
      if (request.url.startsWith('/console/events/') || !request.headers.cookie) return;
      await loadOperatorNames(kit, request);
    });
    registerConsoleAuthRoutes(scope, kit);
    registerConsoleActivationRoutes(scope, kit);
    registerConsolePartnerRoutes(scope, kit);
    registerConsoleAuditRoutes(scope, kit);
    registerConsoleWebhookRoutes(scope, kit);
    registerConsoleOrderRoutes(scope, kit);
    registerConsoleDispatchRoutes(scope, kit);
    registerConsoleLive(scope, kit);
    registerConsoleCashRoutes(scope, kit);
    registerConsoleConfirmationRoutes(scope, kit);
    registerConsolePayoutRoutes(scope, kit);
    registerConsoleReconciliationRoutes(scope, kit);
    registerConsolePayeeRoutes(scope, kit);
    registerConsoleMoneyRoutes(scope, kit);
    registerConsoleJournalRoutes(scope, kit);
    registerConsoleTopupRoutes(scope, kit);
    registerConsoleCatalogRoutes(scope, kit);
    registerConsoleCourierRoutes(scope, kit);
    registerConsolePayRoutes(scope, kit);
    registerConsoleSaleRoutes(scope, kit);
    registerConsoleRefundRoutes(scope, kit);
    registerConsoleEnrolRoutes(scope, kit);
  });
}
