/**
 * Production activation requests' public face: the service (the dashboard saves drafts and submits
 * for a partner's member; operators decide), the notifier port, the operator routes.
 */
export { ActivationService, type ActivationCaller, type ActivationInput } from './service.ts';
export {
  LoggingActivationNotifier,
  MailActivationNotifier,
  type ActivationMailDeps,
  type ActivationNotifier,
} from './notifier.ts';
export { activationRoutes } from './routes/activation.ts';
export { GHANA_POST_REGION_LETTERS, MOBILE_NETWORKS, type Settlement } from './domain/fields.ts';
export { ACTIVATION_STATES, type ActivationState } from './domain/states.ts';
export { activationModule } from './module.ts';
