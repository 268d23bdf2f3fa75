import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  coalescing,
  decodeChanged,
  encodeChanged,
  notifier,
} from '../../../src/platform/db/notify.ts';
import { openPglite } from '../../../src/platform/db/pglite.ts';
import { openPostgres } from '../../../src/platform/db/postgres.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';

describe('coalescing', () => {
  it('sends once for a burst and once more for calls made while a send is in flight', async () => {
    let sends = 0;
    let release: () => void = () => {};
    const wake = coalescing(async () => {
      sends++;
      await new Promise<void>((r) => (release = r));
    }, 0);
    for (let i = 0; i < 100; i++) wake();
    await sleep(5);
    expect(sends).toBe(1);
    for (let i = 0; i < 100; i++) wake();
    release();
    await sleep(5);
    expect(sends).toBe(2);
    release();
    await sleep(5);
    expect(sends).toBe(2);
  });

  it('spaces sends by the gap and never drops the last call', async () => {
    const at: number[] = [];
    const wake = coalescing(async () => void at.push(performance.now()), 30);
    wake();
    await sleep(1);
    wake();
    await sleep(60);
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(29);
  });

  it('keeps going after a failed send', async () => {
    let calls = 0;
    const wake = coalescing(async () => {
      calls++;
      throw new Error('connection lost');
    }, 0);
    wake();
    await sleep(5);
    wake();
    await sleep(5);
    expect(calls).toBe(2);
  });
});

describe('keys', () => {
  it('a send carries the keys of the calls it merged, and none (anything) once a call named none', async () => {
    const sent: Array<readonly string[] | undefined> = [];
    let release: () => void = () => {};
    const notify = notifier(async (_channel, keys) => {
      sent.push(keys);
      await new Promise<void>((r) => (release = r));
    }, 0);
    notify('c', 'cou_a');
    // Made while the first send is in flight: they travel together in the next.
    notify('c', 'cou_b');
    notify('c', 'cou_a');
    release();
    await sleep(5);
    notify('c');
    notify('c', 'cou_d');
    release();
    await sleep(5);
    release();
    await sleep(5);
    expect(sent).toEqual([['cou_a'], ['cou_b', 'cou_a'], undefined]);
  });

  it('encodes keys as a payload, and anything when they cannot travel', () => {
    expect(decodeChanged(encodeChanged(['cou_a', 'cou_b']))).toEqual(['cou_a', 'cou_b']);
    expect(decodeChanged(encodeChanged(undefined))).toBeUndefined();
    expect(decodeChanged(encodeChanged(['a,b']))).toBeUndefined();
    expect(decodeChanged(encodeChanged(['']))).toBeUndefined();
    expect(
      decodeChanged(
        encodeChanged(Array.from({ length: 400 }, (_, i) => `cou_${'x'.repeat(26)}${i}`)),
      ),
    ).toBeUndefined();
  });
});

/** A listener hears the keys named in a transaction, and anything for a notify that named none. */
async function hearsKeys(db: DriverDb) {
  const heard: Array<readonly string[] | undefined> = [];
  const stop = await db.listen('t_keys', (keys) => heard.push(keys));
  // Every key named, in one wake-up or several; "anything" only for the notify that named none.
  const keys = () => [...new Set(heard.flatMap((k) => k ?? ['(anything)']))].sort();
  try {
    await db.transaction(async (tx) => {
      tx.notify('t_keys', 'cou_b');
      tx.notify('t_keys', 'cou_a');
    });
    await expect.poll(keys).toEqual(['cou_a', 'cou_b']);
    db.notify('t_keys');
    await expect.poll(keys).toEqual(['(anything)', 'cou_a', 'cou_b']);
  } finally {
    await stop();
  }
}

/** A listener hears a notify after its transaction commits, never before, never for a rollback. */
async function wakesAfterCommit(db: DriverDb) {
  let heard = 0;
  const stop = await db.listen('t_wake', () => heard++);
  try {
    await expect(
      db.transaction(async (tx) => {
        tx.notify('t_wake');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await db.transaction(async (tx) => {
      tx.notify('t_wake');
      await sleep(100);
      expect(heard).toBe(0);
    });
    await expect.poll(() => heard, { timeout: 2000 }).toBe(1);
    db.notify('t_wake');
    await expect.poll(() => heard, { timeout: 2000 }).toBe(2);
    await sleep(100);
    expect(heard).toBe(2);
  } finally {
    await stop();
  }
}

describe('notify', () => {
  it('wakes listeners once the transaction commits (embedded)', async () => {
    const db = await openPglite(undefined);
    try {
      await wakesAfterCommit(db);
      await hearsKeys(db);
    } finally {
      await db.close();
    }
  });

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'wakes listeners once the transaction commits (PostgreSQL)',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const db = await openPostgres({ url: process.env.DATABASE_URL!, poolSize: 2, schema });
      try {
        await wakesAfterCommit(db);
        await hearsKeys(db);
      } finally {
        await db.query(`drop schema ${schema} cascade`);
        await db.close();
      }
    },
  );
});
