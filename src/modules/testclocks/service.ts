import type { Environment } from '../../platform/auth/scopes.ts';
import { atClockTime } from '../../platform/clock-scope.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  checkAdvance,
  checkFrozenTime,
  MAX_CLOCKS_PER_APP,
  MAX_STEPS_PER_ADVANCE,
  nextStop,
} from './domain/rules.ts';
import { testClocksRepository as repo, type TestClockRow } from './repository.ts';

/** Whose clock: the app and environment of the key that asks. */
export interface ClockOwner {
  appId: string;
  environment: Environment;
}

/**
 * What another module does for a clock's objects when the clock moves (dispatch's sandbox courier
 * and window check): when it next has something due, and doing what is due at the clock's time
 * (inside the advance, the injected clock of every service answers that time).
 */
export interface ClockStep {
  nextDue(clockId: string): Promise<Date | null>;
  run(clockId: string): Promise<void>;
}

/** What another module does for a clock's objects when the clock is deleted (they must not stay frozen). */
export interface ClockEnding {
  end(clockId: string): Promise<void>;
}

/** An advance (or delete) whose process died is taken over by the next one after this long. */
const ADVANCE_LEASE_MS = 5 * 60_000;

const notFound = () =>
  errors.testClockNotFound('No test clock with this id exists for this app (or it was deleted).');
const advancing = () =>
  errors.testClockAdvancing(
    'The test clock is advancing; wait until its status is ready, then try again.',
  );

/**
 * Sandbox test clocks: a staging app's own time. Objects created on a clock take its time; an
 * advance moves the clock forward step by step, at each step running every time-driven step due
 * for the clock's objects (registered by `onAdvance`) in time order, so the events a partner
 * receives come in the order and with the times they would have in real time.
 */
export class TestClocksService {
  private readonly steps: ClockStep[] = [];
  private readonly endings: ClockEnding[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {}

  /** Registers what runs for a clock's objects at each step of an advance. */
  onAdvance(step: ClockStep): void {
    this.steps.push(step);
  }

  async create(
    owner: ClockOwner,
    input: { name: string; frozenTime: Date },
  ): Promise<TestClockRow> {
    checkFrozenTime(input.frozenTime, this.clock());
    // A bound on sandbox rows, not money: two creates racing past it by one do no harm.
    if ((await repo.count(this.db, owner.appId)) >= MAX_CLOCKS_PER_APP)
      throw errors.testClockLimit(
        `An app keeps at most ${MAX_CLOCKS_PER_APP} test clocks; delete one you no longer use.`,
      );
    return repo.insert(this.db, {
      id: newId('clk'),
      app_id: owner.appId,
      name: input.name,
      frozen_time: input.frozenTime,
      created_at: new Date(this.clock()),
    });
  }

  list(owner: ClockOwner, limit: number): Promise<TestClockRow[]> {
    return repo.list(this.db, owner.appId, limit);
  }

  async get(owner: ClockOwner, id: string): Promise<TestClockRow> {
    const clock = isId('clk', id) ? await repo.find(this.db, owner.appId, id) : undefined;
    if (!clock) throw notFound();
    return clock;
  }

  /** Registers what ends a clock's objects when it is deleted. */
  onDelete(ending: ClockEnding): void {
    this.endings.push(ending);
  }

  /**
   * Deletes a ready clock. Its objects are ended first (`onDelete`: open orders cancelled, pending
   * webhooks back on real time), under the clock's advance claim so that nothing advances or is
   * created on it meanwhile; a delete that failed or whose process died can be run again.
   */
  async remove(owner: ClockOwner, id: string): Promise<TestClockRow> {
    const clock = await this.get(owner, id);
    const started = this.clock();
    const lapsed = new Date(started - ADVANCE_LEASE_MS);
    if (!(await repo.claim(this.db, clock.id, clock.frozen_time, new Date(started), lapsed)))
      throw advancing();
    try {
      for (const ending of this.endings) await ending.end(clock.id);
    } catch (err) {
      this.log.warn({ err, clockId: clock.id }, 'test clock delete failed');
      await repo.release(this.db, clock.id);
      throw err;
    }
    // A delete that outlived its lease leaves the clock to whoever took it over (409: send it again).
    if (!(await repo.remove(this.db, clock.id, new Date(this.clock()), new Date(started))))
      throw advancing();
    return clock;
  }

  /**
   * The clock's time for an object created on it now (orders.create, orders.estimate). Production
   * objects never have a clock; an advancing clock takes nothing new until it is ready.
   */
  async timeOf(owner: ClockOwner, id: string): Promise<number> {
    if (owner.environment !== 'staging')
      throw errors.testClockNotAllowed(
        'Only staging keys use test clocks: leave test_clock_id out for production.',
        [{ field: 'test_clock_id', issue: 'is for staging keys only' }],
      );
    const clock = await this.get(owner, id);
    if (clock.status !== 'ready') throw advancing();
    return clock.frozen_time.getTime();
  }

  /**
   * Moves the clock to `to`, stopping at each moment something of its objects falls due, in time
   * order; answers the clock ready at `to`. One advance at a time per clock (409 otherwise).
   */
  async advance(owner: ClockOwner, id: string, to: Date): Promise<TestClockRow> {
    const clock = await this.get(owner, id);
    checkAdvance(clock.frozen_time, to);
    const started = this.clock();
    if (
      !(await repo.claim(
        this.db,
        clock.id,
        to,
        new Date(started),
        new Date(started - ADVANCE_LEASE_MS),
      ))
    )
      throw advancing();
    try {
      await this.stepThrough(clock.id, clock.frozen_time, to);
    } catch (err) {
      // Ready again at the last step it finished, so the partner can advance the rest again.
      this.log.warn({ err, clockId: clock.id }, 'test clock advance failed');
      await repo.release(this.db, clock.id);
      throw err;
    }
    return repo.finish(this.db, clock.id, to);
  }

  /** Runs the steps due from `from` to `to`, in time order, recording each moment reached. */
  private async stepThrough(id: string, from: Date, to: Date): Promise<void> {
    let now = from;
    // What fell due at the clock's own time (an object created on it) runs there first.
    if ((await this.dues(id)).some((due) => due !== null && due.getTime() <= now.getTime()))
      await this.runAt(id, now);
    for (let i = 0; i < MAX_STEPS_PER_ADVANCE; i++) {
      const next = nextStop(now, to, await this.dues(id));
      if (!next) break;
      now = next;
      await this.runAt(id, now);
      await repo.reached(this.db, id, now);
    }
    await this.runAt(id, to);
  }

  private dues(id: string): Promise<(Date | null)[]> {
    return Promise.all(this.steps.map((step) => step.nextDue(id)));
  }

  private runAt(id: string, at: Date): Promise<void> {
    return atClockTime(
      at.getTime(),
      async () => {
        for (const step of this.steps) await step.run(id);
      },
      id,
    );
  }
}
