import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DDL, TABLE } from '../../../bench/baseline/table.ts';
import { migrate } from '../../../src/platform/db/migrate.ts';
import { openPglite } from '../../../src/platform/db/pglite.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';

// The headline bench compares orders.create and orders.get with a bare server's insert and select
// on bench_baseline_orders. That is the same database work only while the bare table has what the
// migrations give delivery_orders: the same columns, checks, unique constraints and indexes (an
// index added for a list is paid by every insert). Foreign keys are the one difference: the bare
// server has no partners, apps or quotes.

const PLATFORM = 'delivery_orders';

describe('the bench baseline table', () => {
  let db: DriverDb;

  beforeAll(async () => {
    db = await openPglite(undefined);
    await migrate(db);
    await db.exec(DDL);
  });
  afterAll(() => db.close());

  /** Each table's rows of `sql` (its `$1` the table), with the table's name written as TABLE. */
  const both = async (sql: string) => {
    const of = async (table: string) =>
      (await db.query<{ d: string }>(sql, [table])).map((r) =>
        r.d.replaceAll(table, 'TABLE').replaceAll('bench_baseline_orders', 'TABLE'),
      );
    return { platform: await of(PLATFORM), baseline: await of(TABLE) };
  };

  it('has the same columns, in the same order, with the same types, nullability and defaults', async () => {
    const { platform, baseline } = await both(
      `select concat_ws(' ', column_name, data_type, is_nullable, column_default) as d
         from information_schema.columns where table_name = $1 order by ordinal_position`,
    );
    expect(platform.length).toBeGreaterThan(40);
    expect(baseline).toEqual(platform);
  });

  it('has the same checks and unique constraints; of the foreign keys, none', async () => {
    const { platform, baseline } = await both(
      `select contype::text || ' ' || pg_get_constraintdef(oid) as d from pg_constraint
        where conrelid = $1::regclass and contype <> 'f' order by 1`,
    );
    expect(platform.filter((d) => d.startsWith('c ')).length).toBeGreaterThan(5);
    expect(baseline).toEqual(platform);
    const foreign = await db.query(
      `select 1 from pg_constraint where conrelid = $1::regclass and contype = 'f'`,
      [TABLE],
    );
    expect(foreign).toEqual([]);
  });

  it('has the same indexes, so an insert maintains as many', async () => {
    const { platform, baseline } = await both(
      `select regexp_replace(indexdef, 'INDEX \\S+ ON \\S+', 'INDEX ON') as d
         from pg_indexes where tablename = $1 order by 1`,
    );
    expect(platform.length).toBeGreaterThanOrEqual(12);
    expect(baseline.sort()).toEqual(platform.sort());
  });
});
