import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { fileDatabase } from '../../helpers/file-database.ts';
import { onPostgres } from '../../helpers/harness.ts';
import { TcpProxy } from '../../helpers/tcp-proxy.ts';

// A statement the database refuses (a duplicate reference, a refused wallet debit, a value out of
// range) is an answer, not a broken connection: the pooled connection serves the next statement.
// Closing it on every refusal cost a new connection each time (start-up, statements prepared
// again): tens of milliseconds a refusal, and a cheap way to load the server. A connection the
// server ends is still dropped. The embedded database has no pool.

const database = fileDatabase(async (db) => {
  await db.query('create table refusal_probe (id int primary key)');
  await db.query('insert into refusal_probe values (1)');
}, 1);

const backend = async (db: ReturnType<typeof database>) =>
  (await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;

describe.runIf(onPostgres)('a pooled connection after a refused statement (PostgreSQL)', () => {
  it('serves the next statement on the same session after a unique violation or a data error', async () => {
    const db = database();
    const before = await backend(db);
    await expect(db.query('insert into refusal_probe values ($1)', [1])).rejects.toMatchObject({
      code: expect.any(String),
    });
    await expect(db.query('select 1 / $1::int as x', [0])).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(await backend(db)).toBe(before);
    expect(await db.query('select count(*)::int as n from refusal_probe')).toEqual([{ n: 1 }]);
  });

  it('drops a connection the server ended, and the next statement gets a new one', async () => {
    const db = database();
    const before = await backend(db);
    await expect(
      db.query('select pg_terminate_backend(pg_backend_pid()) as ended where $1::int = 1', [1]),
    ).rejects.toBeTruthy();
    const after = await backend(db);
    expect(after).not.toBe(before);
  });

  it('answers a connection cut mid-statement or mid-transaction as unavailable, and the process lives on', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    const proxy = await new TcpProxy(url.hostname, Number(url.port || 5432)).start();
    url.port = String(proxy.port);
    // No schema: the statements below touch no table.
    const db = await openDatabase(
      { kind: 'postgres', url: url.toString(), poolSize: 2, schema: undefined },
      { migrate: false },
    );
    try {
      const sleeping = (q: Pick<typeof db, 'query'>) =>
        q.query('select pg_sleep($1) as slept', [5]);
      const running = (state: string) =>
        expect
          .poll(
            async () =>
              (
                await database().query<{ n: number }>(
                  "select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep%' and state = $1",
                  [state],
                )
              )[0]!.n,
            { timeout: 10_000, interval: 20 },
          )
          .toBeGreaterThan(0);
      const statement = sleeping(db);
      await running('active');
      await proxy.cut();
      await expect(statement).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await proxy.restore();
      const transaction = db.transaction((tx) => sleeping(tx));
      await running('active');
      await proxy.cut();
      await expect(transaction).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await proxy.restore();
      expect(await db.query('select 1 as one where $1::int = 1', [1])).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
      await proxy.close();
    }
  });
});
