import type { Db } from '../../platform/db/index.ts';
import { errors, isAppError } from '../../platform/errors.ts';
import {
  type ActionRecord,
  actionsRepository as repo,
  type KeptAction,
} from './actions-repository.ts';
import type { ActionDetail, ActionResult, CourierAction } from './domain/action.ts';
import type { CouriersService } from './service.ts';

/** How long an action id is remembered: a phone's queue replays within hours, never weeks. */
export const ACTION_RETENTION_MS = 7 * 24 * 3_600_000;
/** Rows one delete of the retention job takes, so no statement holds many locks for long. */
const ACTION_PRUNE_BATCH = 1_000;

/** Work for after the action's commit: messages to send, the next courier to offer a job to. */
export type AfterCommit = (work: () => Promise<void>) => void;

/**
 * Applies one action of a courier, inside the transaction that claimed its id: every
 * `db.transaction` (and query) a handler's services run joins it, each in a savepoint of its own, so
 * the effect and the action's record commit together. It receives the action's id (for a kind that
 * wants it) and `afterCommit`, where it leaves work that must not run inside a transaction (a text
 * message). Throwing a 4xx AppError refuses the action (the phone drops it and shows the reason);
 * anything else is a failure on our side (nothing is kept, and the phone retries).
 */
export type ActionHandler = (input: {
  courierId: string;
  actionId: string;
  at: Date;
  payload: Record<string, unknown>;
  afterCommit: AfterCommit;
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that have nothing to say simply return
}) => Promise<ActionDetail | void>;

/** What the first of an action id's sendings answered, told again to a replay. */
function replayAnswer(action: CourierAction, earlier: ActionRecord): ActionResult {
  if (earlier.kind !== action.kind)
    return {
      id: action.id,
      result: 'refused',
      reason: `This action id was already used for "${earlier.kind}".`,
    };
  if (earlier.outcome === 'refused') {
    const code = earlier.result?.code;
    return {
      id: action.id,
      result: 'refused',
      reason: earlier.reason ?? 'Refused.',
      ...(code ? { code } : {}),
    };
  }
  // Null only for a claim left by code before migration 055 (its apply never settled).
  if (earlier.outcome === null) return { id: action.id, result: 'pending' };
  return { id: action.id, result: 'already_applied', ...detailOf(earlier.result ?? undefined) };
}

const detailOf = (detail: ActionDetail | undefined): ActionDetail =>
  detail ? { stage: detail.stage, status: detail.status } : {};

/**
 * The courier app's actions, by kind. Each action id is claimed in one transaction with its
 * handler's effect and its outcome (courier_actions, the one record of it), so a replay from the
 * phone's offline queue, sent again or twice at once, is answered from that record and never
 * applied twice. Other modules' kinds are registered by src/flows/; the endpoint does not change.
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

  /**
   * Deletes every courier's actions older than the retention, in bounded batches (the retention
   * job), so a courier who never signs in again leaves no actions behind. Answers how many.
   */
  async prune(): Promise<number> {
    const before = new Date(this.clock() - ACTION_RETENTION_MS);
    let total = 0;
    for (let n = ACTION_PRUNE_BATCH; n === ACTION_PRUNE_BATCH; total += n)
      n = await repo.prune(this.db, before, ACTION_PRUNE_BATCH);
    return total;
  }

  /** The courier's recorded actions still remembered, oldest first (position reports are not kept). */
  async history(courierId: string): Promise<KeptAction[]> {
    return repo.history(this.db, courierId);
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  async apply(courierId: string, action: CourierAction): Promise<ActionResult> {
    const handler = this.handlers.get(action.kind);
    if (!handler)
      return { id: action.id, result: 'refused', reason: `There is no action ${action.kind}.` };
    if (this.unrecorded.has(action.kind)) return this.applyUnrecorded(courierId, action, handler);
    let later: Array<() => Promise<void>> = [];
    const answer = await this.db.unitOfWork(async (tx): Promise<ActionResult> => {
      // A retried attempt (PostgreSQL's serialization failures) starts with no work of its own.
      later = [];
      const now = new Date(this.clock());
      const earlier = await repo.claim(tx, courierId, action.id, action.kind, now);
      if (earlier) return replayAnswer(action, earlier);
      let detail: ActionDetail | undefined;
      try {
        detail =
          (await handler({
            courierId,
            actionId: action.id,
            at: action.at,
            payload: action.payload,
            afterCommit: (work) => void later.push(work),
          })) ?? undefined;
      } catch (err) {
        // The refusing service's savepoint rolled back (a half-made step); what others finished stays
        // with the refusal, as their own transactions did (a wrong delivery code stays counted).
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        later = [];
        await repo.settle(tx, courierId, action.id, {
          outcome: 'refused',
          reason: err.message,
          code: err.code,
        });
        return { id: action.id, result: 'refused', reason: err.message, code: err.code };
      }
      await repo.settle(tx, courierId, action.id, { outcome: 'applied', result: detail });
      return { id: action.id, result: 'applied', ...detailOf(detail) };
    });
    for (const work of later) await work();
    return answer;
  }

  /** An idempotent kind: applied each time it arrives (a replay changes nothing), refused the same way each time. */
  private async applyUnrecorded(
    courierId: string,
    action: CourierAction,
    handler: ActionHandler,
  ): Promise<ActionResult> {
    const later: Array<() => Promise<void>> = [];
    try {
      await handler({
        courierId,
        actionId: action.id,
        at: action.at,
        payload: action.payload,
        afterCommit: (work) => void later.push(work),
      });
    } catch (err) {
      if (isAppError(err) && err.statusCode < 500)
        return { id: action.id, result: 'refused', reason: err.message };
      throw err;
    }
    for (const work of later) await work();
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
