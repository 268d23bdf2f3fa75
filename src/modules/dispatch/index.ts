/** Dispatch's public face: offers, assignments and couriers' job actions (staging's by the sandbox courier). */
export { allowsStep, COURIER_ACTIONS, type CourierAction, type Stage } from './domain/actions.ts';
export { registerDispatchGauges } from './metrics.ts';
export { COURIER_JOBS_CHANNEL, REOFFER_AFTER_MS } from './offers.ts';
export { DISPATCH_CHANNEL } from './repository.ts';
export { dispatchModule, createDispatchModule, type DispatchModule } from './module.ts';
export type { ClockSteps } from './clock-steps.ts';
export type { SandboxCourier, SandboxProof } from './sandbox-courier.ts';
export type {
  ActionResult,
  ActionUnit,
  AssignHook,
  BatchStop,
  BoardColumn,
  BoardEntry,
  CurrentJob,
  DeliveryCheck,
  DispatchService,
  OpenOffer,
} from './service.ts';
export { dispatchSettings, type DispatchSettings } from './settings.ts';
export type { CurrentDrop, ProgressListener } from './trail.ts';
