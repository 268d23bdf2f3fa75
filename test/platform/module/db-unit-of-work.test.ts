import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/platform/db/index.ts';
import { openScratchDb } from '../../helpers/raw-db.ts';

const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
let db: Db;

beforeAll(async () => {
  db = await openScratchDb(3);
  await db.exec('create table uow_t (v text primary key)');
});
afterAll(() => db.close());

const values = async () =>
  (await db.query<{ v: string }>('select v from uow_t order by v')).map((r) => r.v);
const insert = (v: string) =>
  db.transaction((tx) => tx.query('insert into uow_t values ($1)', [v]));

describe(`a unit of work (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('commits what every transaction and statement inside it wrote, together', async () => {
    const effects: string[] = [];
    await db.unitOfWork(async (tx) => {
      await insert('a1');
      await db.query('insert into uow_t values ($1)', ['a2']);
      db.afterCommit(() => effects.push('outer'));
      await db.transaction(async (inner) => inner.afterCommit(() => effects.push('inner')));
      // Inside the unit, reads see its uncommitted writes.
      expect(await values()).toEqual(['a1', 'a2']);
      await tx.query('insert into uow_t values ($1)', ['a3']);
      expect(effects).toEqual([]);
    });
    expect(await values()).toEqual(['a1', 'a2', 'a3']);
    expect(effects).toEqual(['outer', 'inner']);
  });

  it('wakes listeners once it commits, for a notification sent from a transaction inside it, and never after a rollback', async () => {
    const channel = `uow_${randomBytes(3).toString('hex')}`;
    let rings = 0;
    let rang: () => void = () => {};
    const unlisten = await db.listen(channel, () => {
      rings++;
      rang();
    });
    try {
      const heard = new Promise<void>((resolve) => (rang = resolve));
      await db.unitOfWork(async () => {
        await db.transaction(async (inner) => inner.notify(channel));
        expect(rings).toBe(0);
      });
      await heard;
      expect(rings).toBe(1);
      await expect(
        db.unitOfWork(async () => {
          await db.transaction(async (inner) => inner.notify(channel));
          throw new Error('later step failed');
        }),
      ).rejects.toThrow('later step failed');
      // A commit after the rollback rings once more: only its own notification arrives.
      const again = new Promise<void>((resolve) => (rang = resolve));
      await db.unitOfWork(async () => db.transaction(async (inner) => inner.notify(channel)));
      await again;
      expect(rings).toBe(2);
    } finally {
      await unlisten();
    }
  });

  it('rolls every joined transaction back when a later step fails, and runs none of their effects', async () => {
    const effects: string[] = [];
    await expect(
      db.unitOfWork(async (tx) => {
        await db.transaction(async (inner) => {
          await inner.query('insert into uow_t values ($1)', ['b1']);
          inner.afterCommit(() => effects.push('b1'));
        });
        await tx.query('insert into uow_t values ($1)', ['a1']); // a duplicate: the unit fails
      }),
    ).rejects.toThrow();
    expect(await values()).not.toContain('b1');
    expect(effects).toEqual([]);
  });

  it('undoes only a joined transaction that failed, as its own transaction would have, and keeps the unit usable', async () => {
    const effects: string[] = [];
    await db.unitOfWork(async () => {
      await expect(
        db.transaction(async (inner) => {
          await inner.query('insert into uow_t values ($1)', ['c1']);
          inner.afterCommit(() => effects.push('c1'));
          await inner.query('insert into uow_t values ($1)', ['a1']);
        }),
      ).rejects.toThrow();
      await expect(db.query('insert into uow_t values ($1)', ['a2'])).rejects.toThrow();
      await insert('c2');
    });
    expect(await values()).toEqual(['a1', 'a2', 'a3', 'c2']);
    expect(effects).toEqual([]);
  });

  it("releases a joined statement's savepoint with the next one's savepoint, in one round trip", async () => {
    const sent: string[] = [];
    await db.unitOfWork(async (tx) => {
      const exec = tx.exec.bind(tx);
      tx.exec = (sql: string) => {
        sent.push(sql);
        return exec(sql);
      };
      await db.query('insert into uow_t values ($1)', ['f1']);
      await db.query('insert into uow_t values ($1)', ['f2']);
      await expect(db.query('insert into uow_t values ($1)', ['f1'])).rejects.toThrow();
      await db.query('insert into uow_t values ($1)', ['f3']);
    });
    expect(sent).toEqual([
      'savepoint uow_1',
      'release savepoint uow_1; savepoint uow_2',
      'release savepoint uow_2; savepoint uow_3',
      'rollback to savepoint uow_3',
      'savepoint uow_4',
    ]);
    expect(await values()).toEqual(expect.arrayContaining(['f1', 'f2', 'f3']));
  });

  it('undoes the finished, unreleased statements of a joined transaction that fails after them', async () => {
    await db.unitOfWork(async () => {
      await expect(
        db.transaction(async () => {
          await db.query('insert into uow_t values ($1)', ['g1']);
          await db.query('insert into uow_t values ($1)', ['g2']);
          throw new Error('refused after two statements');
        }),
      ).rejects.toThrow('refused after two statements');
      await insert('g3');
    });
    const now = await values();
    expect(now).toContain('g3');
    expect(now).not.toContain('g1');
    expect(now).not.toContain('g2');
  });

  it('lets concurrent transactions inside it take turns, and nested ones run inside their parent', async () => {
    await db.unitOfWork(async () => {
      await Promise.all(
        ['d1', 'd2', 'd3'].map((v) =>
          db.transaction(async (tx) => {
            await tx.query('insert into uow_t values ($1)', [v]);
            await insert(`${v}n`);
          }),
        ),
      );
    });
    expect(await values()).toEqual(expect.arrayContaining(['d1', 'd1n', 'd2', 'd2n', 'd3', 'd3n']));
  });

  it('leaves work it started and did not wait for to run on its own after it ends', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await db.unitOfWork(async () => {
      later = new Promise((r) => setTimeout(r, 20)).then(() => insert('e1'));
    });
    await later;
    expect(await values()).toContain('e1');
  });
});
