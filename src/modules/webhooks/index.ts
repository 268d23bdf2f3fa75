/** Webhooks' public face: the outbox other modules write events to, and what the app wires. */
export {
  appendEvent,
  eventStatement,
  eventsWritten,
  type EventStatement,
  type EventType,
  type OutboxEvent,
} from './outbox.ts';
export { WebhookDispatcher } from './dispatcher.ts';
export type { ClockRetries } from './clock-retries.ts';
export { WebhookAdminService } from './admin-service.ts';
export { webhookAdminRoutes } from './routes/admin-webhooks.ts';
export { webhookSettings, type WebhookSettings } from './settings.ts';
export { webhookEvents } from './events.ts';
export { registerBacklogGauges } from './metrics.ts';
export { webhooksModule } from './module.ts';
