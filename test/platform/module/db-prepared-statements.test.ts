import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/platform/db/index.ts';
import { openScratchDb } from '../../helpers/raw-db.ts';
import { MAX_PREPARED } from '../../../src/platform/db/types.ts';

const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
let db: Db;

beforeAll(async () => {
  // One connection: PostgreSQL's prepared statements are per connection, and the catalog view
  // read here must be that connection's.
  db = await openScratchDb(1);
  await db.exec(`create table things (id text primary key, n int8 not null, doc jsonb)`);
});
afterAll(() => db.close());

const preparedAs = async (text: string) =>
  db.query<{ name: string }>(
    'select name from pg_prepared_statements where statement = $1 and not from_sql',
    [text],
  );

describe(`prepared statements (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('prepares a parameterised statement once per session and runs it again by name', async () => {
    const text = 'select $1::int4 + 1 as n';
    for (const v of [1, 2, 3]) expect(await db.query(text, [v])).toEqual([{ n: v + 1 }]);
    expect(await preparedAs(text)).toHaveLength(1);
  });

  it('sends and reads back every kind of value as it is', async () => {
    const at = new Date('2026-12-01T10:11:12.345Z');
    const [row] = await db.query<Record<string, unknown>>(
      `select $1::int8 as big, $2::text as text, $3::jsonb as doc, $4::timestamptz as at,
              $5::bytea as bytes, $6::boolean as flag, $7::text as nothing, $8::text[] as list,
              $9::numeric as amount`,
      [
        9_007_199_254_740_991,
        'Ama \u00e9 "q" \\',
        { a: [1, 'b'] },
        at,
        Buffer.from([0, 1, 255]),
        false,
        null,
        ['x', null, 'a,b'],
        '12.50',
      ],
    );
    expect(row).toMatchObject({
      big: 9_007_199_254_740_991,
      text: 'Ama \u00e9 "q" \\',
      doc: { a: [1, 'b'] },
      at,
      flag: false,
      nothing: null,
      list: ['x', null, 'a,b'],
    });
    expect(Buffer.from(row!.bytes as Uint8Array)).toEqual(Buffer.from([0, 1, 255]));
    expect(Number(row!.amount)).toBe(12.5);
  });

  it('answers a statement that fails with its SQLSTATE, and the session and statement stay usable', async () => {
    const insert = 'insert into things (id, n) values ($1, $2) returning id';
    expect(await db.query(insert, ['th_1', 1])).toEqual([{ id: 'th_1' }]);
    await expect(db.query(insert, ['th_1', 2])).rejects.toMatchObject({
      code: '23505',
      constraint: 'things_pkey',
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(insert, ['th_2', 2]);
        await tx.query(insert, ['th_1', 3]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query(insert, ['th_2', 2])).toEqual([{ id: 'th_2' }]);
    // 22P02, translated where statements run.
    await expect(db.query('select $1::int4 as n', ['not a number'])).rejects.toThrow(
      'A value in the request cannot',
    );
    expect(await db.query('select $1::int4 as n', ['7'])).toEqual([{ n: 7 }]);
  });

  it('keeps a statement first prepared in a transaction that rolled back', async () => {
    const text = "select count(*)::int as c from things where id like $1 || '%'";
    await expect(
      db.transaction(async (tx) => {
        expect(await tx.query(text, ['th_'])).toEqual([{ c: 2 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.query(text, ['th_'])).toEqual([{ c: 2 }]);
    expect(await preparedAs(text)).toHaveLength(1);
  });

  it('lets a statement outside a transaction wait for it, never run inside it', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('insert into things (id, n) values ($1, $2)', ['th_wait', 1]);
      outside = db
        .query<{ c: number }>('select count(*)::int as c from things where id = $1', ['th_wait'])
        .then((rows) => order.push(`outside saw ${rows[0]!.c}`));
      // The transaction goes on with statements of its own while the other waits.
      expect(await tx.query('select n from things where id = $1', ['th_wait'])).toEqual([{ n: 1 }]);
      order.push('transaction ends');
    });
    await outside;
    if (onPostgres) expect(order).toContain('outside saw 1');
    else expect(order).toEqual(['transaction ends', 'outside saw 1']);
  });

  it('refuses a statement through a transaction that has ended', async () => {
    let kept: Parameters<Parameters<Db['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('select $1::int4 as n', [1])).rejects.toThrow('Transaction is closed');
  });

  it('never lets a statement left running by a transaction that rolled back write outside it', async () => {
    let straggler: Promise<unknown> | undefined;
    await expect(
      db.transaction(async (tx) => {
        // Not awaited: its second statement comes after the transaction gave up.
        straggler = (async () => {
          await tx.query('select $1::int4 as n', [1]);
          await tx.query('insert into things (id, n) values ($1, $2)', ['th_straggler', 1]);
        })().then(
          () => 'ran',
          (err: Error) => err.message,
        );
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await straggler).toBe('Transaction is closed');
    expect(await db.query('select id from things where id = $1', ['th_straggler'])).toEqual([]);
  });

  // PostgreSQL's connections keep their statements until they close (a schema change ships with a
  // restart); the embedded database's one session lives as long as the process.
  it.skipIf(onPostgres)(
    'prepares a statement again when a schema change altered its result, or the session dropped it',
    async () => {
      await db.exec('create table shapes (id text primary key)');
      await db.exec("insert into shapes values ('s1')");
      const text = 'select * from shapes where id = $1';
      expect(await db.query(text, ['s1'])).toEqual([{ id: 's1' }]);
      await db.exec("alter table shapes add column colour text not null default 'red'");
      expect(await db.query(text, ['s1'])).toEqual([{ id: 's1', colour: 'red' }]);
      // The stale statement was closed in front of its replacement, not left allocated beside it.
      expect(await preparedAs(text)).toHaveLength(1);

      await db.exec('alter table shapes add column size int4');
      // Inside a transaction the first call fails (and ends it); the next prepares afresh.
      await expect(db.transaction((tx) => tx.query(text, ['s1']))).rejects.toMatchObject({
        code: '0A000',
      });
      expect(await db.transaction((tx) => tx.query(text, ['s1']))).toEqual([
        { id: 's1', colour: 'red', size: null },
      ]);

      await db.exec('deallocate all');
      expect(await db.query(text, ['s1'])).toEqual([{ id: 's1', colour: 'red', size: null }]);
    },
  );
  // Last: past it, every new statement of this database goes unnamed.
  it('runs statements past the cap unnamed, correctly', async () => {
    const texts = Array.from(
      { length: MAX_PREPARED + 20 },
      (_, i) => `select $1::int4 + ${i} as n`,
    );
    for (const [i, text] of texts.entries())
      expect(await db.query(text, [1])).toEqual([{ n: 1 + i }]);
    const [prepared] = await db.query<{ count: number }>(
      'select count(*)::int as count from pg_prepared_statements where not from_sql',
    );
    expect(prepared!.count).toBeLessThanOrEqual(MAX_PREPARED);
    expect(await preparedAs(texts.at(-1)!)).toHaveLength(0);
    expect(await db.query(texts.at(-1)!, [2])).toEqual([{ n: 2 + texts.length - 1 }]);
  });
});
