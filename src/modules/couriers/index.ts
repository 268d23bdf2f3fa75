/** Couriers' public face: courier accounts and their presence (duty, last position), their sign-in, their app's actions. */
export {
  cleanCourierInput,
  isVehicle,
  MAX_ZONES,
  VEHICLES,
  type Vehicle,
} from './domain/courier.ts';
export {
  readAction,
  type ActionDetail,
  type ActionResult,
  type CourierAction,
} from './domain/action.ts';
export {
  CODE_TTL_MS,
  MAX_CODE_ATTEMPTS,
  THROTTLE as SIGN_IN_THROTTLE,
} from './domain/sign-in-code.ts';
export {
  MAX_ENDPOINT_LENGTH,
  PUSH_SERVICE_HOSTS,
  readPushSubscription,
  type EndpointPolicy,
  type PushSubscriptionInput,
} from './domain/push-subscription.ts';
export { PushSubscriptions, type StoredPushSubscription } from './push-subscriptions.ts';
export type { CourierFilter, CourierRow as Courier } from './repository.ts';
export {
  COURIER_PRESENCE_CHANNEL,
  COURIERS_PAGE,
  CouriersService,
  type PositionCondition,
  type PositionListener,
} from './service.ts';
export { CourierSignIn, type SendText } from './sign-in.ts';
export {
  CourierActions,
  registerPresenceActions,
  type ActionHandler,
  type AfterCommit,
} from './actions.ts';
export { courierRoutes, courierView, type CourierRouteHooks } from './routes/couriers.ts';
export type { KeptAction } from './actions-repository.ts';
export { couriersModule } from './module.ts';
