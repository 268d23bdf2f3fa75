import { describe, expect, it } from 'vitest';
import { fileDatabase } from '../../helpers/file-database.ts';
import { onPostgres } from '../../helpers/harness.ts';

// A statement run on its own (a position report's trail point, a session's clock) is its own
// transaction. When PostgreSQL ends it as a deadlock's victim it changed nothing, and it is run
// again like a transaction's attempt; the soak met one as an error page on a courier's report.
// One session holds the only connection on the embedded database: no deadlock can happen there.

const database = fileDatabase(async (db) => {
  await db.query('create table deadlock_probe (id int primary key, v int not null)');
  await db.query('insert into deadlock_probe values (1, 0), (2, 0)');
}, 3);

const waitingOnLock = async (q: { query: ReturnType<typeof database>['query'] }) =>
  (
    await q.query(
      `select 1 from pg_stat_activity
        where wait_event_type = 'Lock' and query like 'update deadlock_probe set v = v + 100%'`,
    )
  ).length > 0;

describe.runIf(onPostgres)('a statement on its own, ended by a deadlock (PostgreSQL)', () => {
  it('is run again and applied once, after the transaction it deadlocked with', async () => {
    const db = database();
    let statementWaits!: () => void;
    const waiting = new Promise<void>((resolve) => (statementWaits = resolve));
    let holdsRow2!: () => void;
    const row2Held = new Promise<void>((resolve) => (holdsRow2 = resolve));
    const other = db.transaction(async (tx) => {
      // This side waits longer before looking for a deadlock: the lone statement is the victim.
      await tx.query("select set_config('deadlock_timeout', '5s', true)");
      await tx.query('update deadlock_probe set v = v + 1 where id = 2');
      holdsRow2();
      await waiting;
      await tx.query('update deadlock_probe set v = v + 10 where id = 1');
    });
    // Sent before the transaction held row 2, the statement would take both rows and never wait.
    await row2Held;
    // Locks row 1, then waits for row 2, which the transaction holds; the transaction then asks for row 1.
    const statement = db.query('update deadlock_probe set v = v + 100 where id in (1, 2)');
    await expect.poll(() => waitingOnLock(db), { timeout: 10_000, interval: 20 }).toBe(true);
    statementWaits();
    await Promise.all([statement, other]);
    expect(await db.query('select id, v from deadlock_probe order by id')).toEqual([
      { id: 1, v: 110 },
      { id: 2, v: 101 },
    ]);
  });
});
