import { describe, expect, it } from 'vitest';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { onRawPglite, onRawSchema } from '../../helpers/raw-db.ts';

async function runsOnlyForTheCommit(db: DriverDb) {
  const effects: string[] = [];
  await expect(
    db.transaction(async (tx) => {
      tx.afterCommit(() => effects.push('rolled back'));
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  let attempts = 0;
  const result = await db.transaction(async (tx) => {
    attempts++;
    tx.afterCommit(() => effects.push(`attempt ${attempts}`));
    expect(effects).toEqual([]);
    // A serialization failure on the first attempt: PostgreSQL's helper retries, PGlite has none to retry.
    if (db.kind === 'postgres' && attempts === 1)
      throw Object.assign(new Error('could not serialize'), { code: '40001' });
    return 'done';
  });
  expect(result).toBe('done');
  expect(effects).toEqual([`attempt ${attempts}`]);
  db.afterCommit(() => effects.push('outside'));
  expect(effects.at(-1)).toBe('outside');
}

describe('afterCommit', () => {
  it('runs an effect once its transaction commits, never for a rolled-back attempt (embedded)', () =>
    onRawPglite(runsOnlyForTheCommit));

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'runs an effect once, for the retried attempt that commits (PostgreSQL)',
    () => onRawSchema(runsOnlyForTheCommit),
  );
});
