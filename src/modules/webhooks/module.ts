import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { AccountsService } from '../accounts/index.ts';
import { WebhookAdminService } from './admin-service.ts';
import { ClockRetries } from './clock-retries.ts';
import { WebhookDispatcher } from './dispatcher.ts';
import { registerBacklogGauges } from './metrics.ts';
import { webhookAdminRoutes } from './routes/admin-webhooks.ts';
import type { WebhookSettings } from './settings.ts';

interface Needs {
  db: Db;
  box: SecretBox;
  clock: () => number;
  log: Logger;
  accounts: AccountsService;
  destinations: Destinations;
  config: { webhooks: WebhookSettings };
}

/** The outbox every module writes to, its dispatcher (unless WEBHOOK_DISPATCHER=off) and the operators' routes. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  tables: ['outbox_events', 'webhook_attempts', 'webhook_disabled_endpoints'],
  needs: ['accounts'],
  build: ({ db, box, clock, log, accounts, destinations, config }: Needs) => {
    const webhookAdmin = new WebhookAdminService(db, accounts, clock);
    const dispatcher = config.webhooks.dispatcher
      ? new WebhookDispatcher(db, box, config.webhooks, destinations, clock, log)
      : undefined;
    return {
      face: { webhookAdmin, dispatcher, webhookClockRetries: new ClockRetries(db, clock) },
      adminRoutes: webhookAdminRoutes(webhookAdmin),
      workers: dispatcher ? [dispatcher] : [],
      gauges: (registry) => registerBacklogGauges(registry, db, clock),
    };
  },
});
