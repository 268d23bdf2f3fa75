import { int, onOff, type Env } from '../../platform/settings.ts';

export interface DispatchSettings {
  /** How long a courier has to accept an offer before it moves to the next one. */
  offerSeconds: number;
  /** An order without a courier this long after it was placed is late (alert and gauge). */
  lateMinutes: number;
  /** A job with a window is offered this long before its pickup_ready_at (the time to reach the pickup). */
  windowLeadMinutes: number;
  /**
   * Multi-drop: at most this many drops in one batch offered to one courier (1: never batch). Jobs
   * batch when they wait at the same round, share a pickup and zone, and fell due within
   * batchWindowSeconds of each other.
   */
  batchMaxStops: number;
  batchWindowSeconds: number;
  /** Couriers whose last position is older than this are not offered jobs. */
  positionMaxAgeMinutes: number;
  /** How often the dispatcher expires offers and offers waiting jobs; 0 turns it off here. */
  intervalMs: number;
  /** Couriers' trail points are deleted after this many hours (and once their job has ended). */
  locationRetentionHours: number;
  /** Seconds between the sandbox courier's steps for staging orders; 0 turns it off here. */
  sandboxStepSeconds: number;
  /**
   * The sandbox courier takes this machine's production orders too, and real couriers none of them
   * (a local playground: the app's configuration allows it only on this machine, with sandbox money).
   */
  sandboxForProduction: boolean;
}

/** Dispatch's settings, read from the environment. */
export function dispatchSettings(env: Env, problems: string[]): DispatchSettings {
  return {
    offerSeconds: int(env, 'DISPATCH_OFFER_SECONDS', 45, 5, 3600, problems),
    lateMinutes: int(env, 'DISPATCH_LATE_MINUTES', 10, 1, 1440, problems),
    windowLeadMinutes: int(env, 'DISPATCH_WINDOW_LEAD_MINUTES', 30, 0, 720, problems),
    batchMaxStops: int(env, 'DISPATCH_BATCH_MAX_STOPS', 4, 1, 10, problems),
    batchWindowSeconds: int(env, 'DISPATCH_BATCH_WINDOW_SECONDS', 600, 0, 86_400, problems),
    positionMaxAgeMinutes: int(env, 'DISPATCH_POSITION_MAX_AGE_MINUTES', 15, 1, 1440, problems),
    intervalMs: int(env, 'DISPATCH_INTERVAL_MS', 1000, 0, 3_600_000, problems),
    locationRetentionHours: int(env, 'LOCATION_RETENTION_HOURS', 24, 1, 24 * 90, problems),
    sandboxStepSeconds: int(env, 'SANDBOX_COURIER_STEP_SECONDS', 30, 0, 86_400, problems),
    sandboxForProduction: onOff(env, 'SANDBOX_COURIER_FOR_PRODUCTION', problems),
  };
}
