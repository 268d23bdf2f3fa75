import { describe, expect, it } from 'vitest';
import {
  MigrationChangedError,
  migrate,
  readMigrations,
} from '../../../src/platform/db/migrate.ts';
import { openPglite } from '../../../src/platform/db/pglite.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { onRawPglite, onRawSchema } from '../../helpers/raw-db.ts';

/** Semicolons where a statement splitter would cut: a block comment, an escaped string, a quoted name, a function body. */
const TRICKY = `/* a; b */ create table "a;b" (x text default E'it\\'s; here', y text default 'c;d');
-- a comment; with a semicolon
create function "f;g"() returns int language plpgsql as $$ begin perform 1; return 2; end $$;
insert into "a;b" default values;`;

const fixture = { version: 1, name: '001_tricky.sql', sql: TRICKY, checksum: 'x' };

async function appliesWhole(db: DriverDb) {
  expect(await migrate(db, [fixture])).toEqual([1]);
  expect(await db.query('select x, y from "a;b"')).toEqual([{ x: "it's; here", y: 'c;d' }]);
  expect(await db.query('select "f;g"() as v')).toEqual([{ v: 2 }]);
  // Applied once: a second run finds it recorded.
  expect(await migrate(db, [fixture])).toEqual([]);
}

describe('migrations', () => {
  it('run each file whole, as written, on the embedded database', () => onRawPglite(appliesWhole));

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'run each file whole on PostgreSQL',
    () => onRawSchema(appliesWhole),
  );

  it('apply a file added after the others, and refuse one edited after it was applied', async () => {
    const db = await openPglite(undefined);
    try {
      expect(await migrate(db, [fixture])).toEqual([1]);
      const next = {
        version: 2,
        name: '002_next.sql',
        sql: 'create table b (x int)',
        checksum: 'y',
      };
      expect(await migrate(db, [fixture, next])).toEqual([2]);
      expect(await migrate(db, [fixture, next])).toEqual([]);
      await expect(migrate(db, [{ ...fixture, checksum: 'edited' }, next])).rejects.toThrow(
        MigrationChangedError,
      );
    } finally {
      await db.close();
    }
  });

  it('are read as numbered files, in order', () => {
    const versions = readMigrations().map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions[0]).toBe(1);
  });
});
