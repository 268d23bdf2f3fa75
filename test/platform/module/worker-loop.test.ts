import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../src/platform/db/pglite.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { WorkerLoop, type WorkerLoopOptions } from '../../../src/platform/worker-loop.ts';

const quiet = { warn() {}, info() {}, error() {}, debug() {} } as never;

describe('WorkerLoop', () => {
  let db: DriverDb;
  beforeAll(async () => {
    db = await openPglite(undefined);
  });
  afterAll(() => db.close());

  const loop = (round: WorkerLoopOptions['round'], pollMs = 60_000) =>
    new WorkerLoop(db, quiet, { name: 't', channel: 't_work', pollMs, round });

  it('runs a round at start, then on each notification, not before the poll otherwise', async () => {
    let rounds = 0;
    const worker = loop(async () => {
      rounds++;
      return false;
    });
    worker.start();
    try {
      await expect.poll(() => rounds).toBe(1);
      await sleep(100);
      expect(rounds).toBe(1);
      db.notify('t_work');
      await expect.poll(() => rounds).toBe(2);
    } finally {
      await worker.stop();
    }
  });

  it('runs again at once while a round says there is more, and after a notification that raced a round', async () => {
    let rounds = 0;
    let release: () => void = () => {};
    const worker = loop(async () => {
      rounds++;
      if (rounds <= 3) return true;
      if (rounds === 4) await new Promise<void>((r) => (release = r));
      return false;
    });
    worker.start();
    try {
      await expect.poll(() => rounds).toBe(4);
      worker.prod();
      release();
      await expect.poll(() => rounds).toBe(5);
      await sleep(100);
      expect(rounds).toBe(5);
    } finally {
      await worker.stop();
    }
  });

  it('keeps polling after a failed round, and stop waits for the round in progress', async () => {
    let rounds = 0;
    let finished = false;
    const worker = loop(async () => {
      rounds++;
      if (rounds === 1) throw new Error('connection lost');
      await sleep(50);
      finished = true;
      return false;
    }, 10);
    worker.start();
    await expect.poll(() => rounds).toBeGreaterThanOrEqual(2);
    await worker.stop();
    expect(finished).toBe(true);
    const after = rounds;
    await sleep(50);
    expect(rounds).toBe(after);
  });

  it('runs a job on an interval without a channel: the first after one interval, never two at once, a failure retried', async () => {
    let runs = 0;
    let active = 0;
    let most = 0;
    let firstAt = 0;
    const started = Date.now();
    const job = WorkerLoop.every(
      't-every',
      20,
      async () => {
        runs++;
        firstAt ||= Date.now();
        active++;
        most = Math.max(most, active);
        try {
          if (runs === 1) throw new Error('connection lost');
          await sleep(30); // longer than the interval: the next round still waits for this one
        } finally {
          active--;
        }
      },
      quiet,
    );
    job.start();
    await expect.poll(() => runs).toBeGreaterThanOrEqual(4);
    await job.stop();
    expect(firstAt - started).toBeGreaterThanOrEqual(15);
    expect(most).toBe(1);
    expect(active).toBe(0);
  });
});
