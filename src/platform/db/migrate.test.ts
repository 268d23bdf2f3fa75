import { describe, expect, it } from 'vitest';
import { readMigrations, splitStatements } from './migrate.ts';

describe('splitStatements', () => {
  it('splits on semicolons outside quotes, comments and dollar-quoted bodies', () => {
    const sql = `create table a (x text default 'a;b'); -- a comment; with a semicolon
create function f() returns trigger language plpgsql as $$ begin perform 1; return null; end $$;
create table b (y int)`;
    expect(splitStatements(sql)).toEqual([
      "create table a (x text default 'a;b')",
      'create function f() returns trigger language plpgsql as $$ begin perform 1; return null; end $$',
      'create table b (y int)',
    ]);
  });

  it('reads the numbered migrations in order', () => {
    const versions = readMigrations().map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions[0]).toBe(1);
  });
});
