import { describe, expect, it } from 'vitest';
import { WITHOUT_FLUSH_WAIT } from '../../../src/platform/db/index.ts';
import { fileDatabase } from '../../helpers/file-database.ts';
import { onPostgres } from '../../helpers/harness.ts';

// Couriers' positions and trail points are written by statements whose own commit does not wait
// for the WAL flush. The setting must hold for that statement's transaction and nothing after it:
// a connection returned to the pool keeps synchronous commits for everything else.

const database = fileDatabase(async (db) => {
  await db.query('create table flush_probe (id int primary key, v int not null)');
  await db.query('insert into flush_probe values (1, 0)');
});

const setting = async (q: { query: ReturnType<typeof database>['query'] }) =>
  (await q.query<{ s: string }>("select current_setting('synchronous_commit') as s"))[0]!.s;

describe(`statements written without waiting for the flush (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('turn synchronous commit off for their own transaction, in a CTE or an update, and only there', async () => {
    const db = database();
    expect(await setting(db)).toBe('on');
    const inside = await db.transaction(async (tx) => {
      const before = await setting(tx);
      await tx.query(
        `with moved as (update flush_probe set v = v + 1 where id = 1 returning v, ${WITHOUT_FLUSH_WAIT})
         select v from moved`,
      );
      return [before, await setting(tx)];
    });
    expect(inside).toEqual(['on', 'off']);
    expect(await db.transaction((tx) => setting(tx))).toBe('on');
    // An autocommitted statement, as the position report runs it: the next ones commit as always.
    await db.query(
      `with added as (insert into flush_probe values (2, 0) returning ${WITHOUT_FLUSH_WAIT}) select 1`,
    );
    for (let i = 0; i < 4; i++) expect(await setting(db)).toBe('on');
    expect(await db.query('select id, v from flush_probe order by id')).toEqual([
      { id: 1, v: 1 },
      { id: 2, v: 0 },
    ]);
  });
});
