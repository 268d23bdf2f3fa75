import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DriverDb } from './types.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

/** The database no longer matches the migration files: an operator has to decide, nothing retries. */
export class MigrationChangedError extends Error {
  override readonly name = 'MigrationChangedError';
}

interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3,}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      return {
        version: Number.parseInt(file, 10),
        name: file,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/**
 * Forward-only: applies each missing migration in its own transaction. An advisory lock keeps
 * instances that start together from applying the same one twice; an edited migration that was
 * already applied stops the start, since the database no longer matches the files.
 */
export async function migrate(db: DriverDb, migrations = readMigrations()): Promise<number[]> {
  await db.query(`create table if not exists schema_migrations (
    version integer primary key, name text not null, checksum text not null,
    applied_at timestamptz not null default now())`);
  const applied: number[] = [];
  if (await allApplied(db, migrations)) return applied;
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(72707369)');
      const rows = await tx.query<{ checksum: string }>(
        'select checksum from schema_migrations where version = $1',
        [m.version],
      );
      if (rows[0]) {
        if (rows[0].checksum !== m.checksum) {
          throw new MigrationChangedError(
            `migration ${m.name} was changed after it was applied; add a new migration instead`,
          );
        }
        return false;
      }
      // The file runs as written, as one script: no splitting to misread quotes or comments.
      await tx.exec(m.sql);
      await tx.query(
        'insert into schema_migrations (version, name, checksum) values ($1, $2, $3)',
        [m.version, m.name, m.checksum],
      );
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

/**
 * Whether every migration is already applied as written, read in one statement: an up-to-date
 * database (every start but the first after a release) takes no lock and opens no transaction per
 * file. Anything else (a pending or an edited migration) goes through the locked loop, which
 * applies or refuses it.
 */
async function allApplied(db: DriverDb, migrations: readonly Migration[]): Promise<boolean> {
  const rows = await db.query<{ version: number; checksum: string }>(
    'select version, checksum from schema_migrations',
  );
  const checksums = new Map(rows.map((r) => [r.version, r.checksum]));
  return migrations.every((m) => checksums.get(m.version) === m.checksum);
}

export interface MigrationState {
  version: number;
  name: string;
  /** Null while the migration is pending. */
  appliedAt: Date | null;
}

/** Every migration file with when it was applied, read without applying anything. */
export async function migrationStatus(
  db: DriverDb,
  migrations = readMigrations(),
): Promise<MigrationState[]> {
  const [table] = await db.query<{ name: string | null }>(
    `select to_regclass('schema_migrations')::text as name`,
  );
  const rows = table?.name
    ? await db.query<{ version: number; applied_at: Date }>(
        'select version, applied_at from schema_migrations',
      )
    : [];
  const applied = new Map(rows.map((r) => [r.version, r.applied_at]));
  return migrations.map((m) => ({
    version: m.version,
    name: m.name,
    appliedAt: applied.get(m.version) ?? null,
  }));
}
