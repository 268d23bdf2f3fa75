import type { Db } from '../../platform/db/index.ts';
import { clockRepository } from './clock-repository.ts';
import type { SandboxCourier } from './sandbox-courier.ts';
import type { WindowWatch } from './window-watch.ts';

const later = (at: Date | null, ms: number) => (at ? new Date(new Date(at).getTime() + ms) : null);

/**
 * Dispatch's time-driven steps for the jobs of one sandbox test clock, run by the clock's advance
 * (at its time): the sandbox courier's offers and moves, then the window check. Outside an advance
 * those jobs never move (the real-time rounds leave them out).
 */
export class ClockSteps {
  constructor(
    private readonly db: Db,
    private readonly sandbox: SandboxCourier,
    private readonly windows: WindowWatch,
  ) {}

  /** The earliest moment one of the clock's jobs has a step to take (null: none). */
  async nextDue(clockId: string): Promise<Date | null> {
    const dues = await clockRepository.dues(this.db, clockId);
    // The sandbox courier takes a job (and moves it on) once it has rested longer than a step.
    const step = this.sandbox.step + 1;
    const times = [
      later(dues.waiting_due, step),
      later(dues.held_since, step),
      later(dues.miss_at, 0),
      later(dues.open_offer, 0),
    ];
    const due = times.filter((t): t is Date => t !== null).map((t) => t.getTime());
    return due.length > 0 ? new Date(Math.min(...due)) : null;
  }

  /** Takes every step due now (the clock's time) for the clock's jobs. */
  async run(clockId: string): Promise<void> {
    await this.sandbox.tick(clockId);
    await this.windows.sweep(clockId);
  }
}
