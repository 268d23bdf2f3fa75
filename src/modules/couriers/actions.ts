import type { Db } from '../../platform/db/index.ts';
import { errors, isAppError } from '../../platform/errors.ts';
import { actionsRepository as repo } from './actions-repository.ts';
import type { ActionDetail, ActionResult, CourierAction } from './domain/action.ts';
import type { CouriersService } from './service.ts';

/**
 * Applies one action of a courier. It receives the action's id, so a kind that is not idempotent by
 * itself can make its own change unique on it. Throwing a 4xx AppError refuses the action (the
 * phone drops it and shows the reason); anything else is a failure on our side (the phone retries).
 */
/** How long an action id is remembered: a phone's queue replays within hours, never weeks. */
export const ACTION_RETENTION_MS = 7 * 24 * 3_600_000;

/** A kind with nothing to tell the phone (duty, position) returns nothing; a job action where the job is now. */
export type ActionHandler = (input: {
  courierId: string;
  actionId: string;
  at: Date;
  payload: Record<string, unknown>;
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that have nothing to say simply return
}) => Promise<ActionDetail | void>;

/**
 * The courier app's actions, by kind. Each action id is claimed before its handler runs, so a
 * replay from the phone's offline queue is answered ("already_applied") and never applied twice.
 * Other modules (dispatch) register their kinds; the endpoint does not change.
 */
export class CourierActions {
  private readonly handlers = new Map<string, ActionHandler>();
  private readonly unrecorded = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /**
   * Adds an action kind. A kind whose handler is idempotent by itself (`recorded: false`: a position
   * report older than the newest known changes nothing) is not kept in courier_actions: a phone sends
   * one every 15 s, and keeping each as a record would grow the table by hundreds of thousands of rows
   * an hour for no replay it protects.
   */
  register(kind: string, handler: ActionHandler, opts: { recorded?: boolean } = {}): void {
    if (this.handlers.has(kind)) throw new Error(`courier action ${kind} is already registered`);
    this.handlers.set(kind, handler);
    if (opts.recorded === false) this.unrecorded.add(kind);
  }

  /** Forgets the courier's actions older than the retention (called at each sign-in, so the table stays small). */
  async forgetOld(courierId: string): Promise<void> {
    await repo.prune(this.db, courierId, new Date(this.clock() - ACTION_RETENTION_MS));
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  async apply(courierId: string, action: CourierAction): Promise<ActionResult> {
    const handler = this.handlers.get(action.kind);
    if (!handler)
      return { id: action.id, result: 'refused', reason: `There is no action ${action.kind}.` };
    if (this.unrecorded.has(action.kind)) return this.applyUnrecorded(courierId, action, handler);
    const earlier = await repo.claim(
      this.db,
      courierId,
      action.id,
      action.kind,
      new Date(this.clock()),
    );
    if (earlier) {
      if (earlier.outcome === 'refused')
        return { id: action.id, result: 'refused', reason: earlier.reason ?? 'Refused.' };
      return {
        id: action.id,
        result: earlier.outcome === 'applied' ? 'already_applied' : 'pending',
      };
    }
    let detail: ActionDetail | undefined;
    try {
      detail =
        (await handler({
          courierId,
          actionId: action.id,
          at: action.at,
          payload: action.payload,
        })) ?? undefined;
    } catch (err) {
      if (isAppError(err) && err.statusCode < 500) {
        await repo.settle(this.db, courierId, action.id, 'refused', err.message);
        return { id: action.id, result: 'refused', reason: err.message, code: err.code };
      }
      await repo.release(this.db, courierId, action.id);
      throw err;
    }
    await repo.settle(this.db, courierId, action.id, 'applied', null);
    return {
      id: action.id,
      result: 'applied',
      ...(detail ? { stage: detail.stage, status: detail.status } : {}),
    };
  }

  /** An idempotent kind: applied each time it arrives (a replay changes nothing), refused the same way each time. */
  private async applyUnrecorded(
    courierId: string,
    action: CourierAction,
    handler: ActionHandler,
  ): Promise<ActionResult> {
    try {
      await handler({ courierId, actionId: action.id, at: action.at, payload: action.payload });
    } catch (err) {
      if (isAppError(err) && err.statusCode < 500)
        return { id: action.id, result: 'refused', reason: err.message };
      throw err;
    }
    return { id: action.id, result: 'applied' };
  }
}

/** The kinds couriers' presence needs: going on or off duty, and position reports. */
export function registerPresenceActions(actions: CourierActions, couriers: CouriersService): void {
  actions.register('duty', async ({ courierId, payload }) => {
    if (typeof payload.on_duty !== 'boolean')
      throw errors.validation('on_duty must be true or false.');
    await couriers.setDuty(courierId, payload.on_duty);
  });
  actions.register(
    'position',
    async ({ courierId, at, payload }) => {
      if (typeof payload.lat !== 'number' || typeof payload.lng !== 'number')
        throw errors.validation('lat and lng must be numbers.');
      // An older report than the newest known is applied as a no-op: the newest position stays.
      await couriers.reportPosition(courierId, { lat: payload.lat, lng: payload.lng, at });
    },
    { recorded: false },
  );
}
