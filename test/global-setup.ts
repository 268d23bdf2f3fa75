import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate, readMigrations } from '../src/platform/db/migrate.ts';
import { openPglite } from '../src/platform/db/pglite.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string | null;
    schemaPrefix: string | null;
    /** The same dump on both passes: spawned servers on an embedded DATA_DIR run in either. */
    dataDirTemplate: string;
  }
}

/**
 * Brings dist/ up to date with src/ (tests that run the CLIs or the compiled server must run what is
 * in the tree), then migrates one embedded database and dumps it, so each test's in-memory database
 * (embedded pass) and the embedded data directories of spawned servers (both passes, seedDataDir)
 * start from a copy. The dump is named by the migrations and the PGlite version it was made with, so
 * the tiers of one run, and the runs after it, reuse it until a migration changes.
 */
export default async function setup(project: TestProject): Promise<void | (() => Promise<void>)> {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}${build.stderr}`);
  const file = await migratedDump();
  project.provide('dataDirTemplate', file);
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    project.provide('pgliteTemplate', null);
    // The tests' schemas are named under this run's prefix, so the run drops every one it left:
    // the ones its workers kept for the next app (test/helpers/database-pool.ts) and any a failed
    // start stranded.
    const prefix = `t_${randomBytes(3).toString('hex')}_`;
    project.provide('schemaPrefix', prefix);
    return () => dropSchemas(process.env.DATABASE_URL!, prefix);
  }
  project.provide('pgliteTemplate', file);
  project.provide('schemaPrefix', null);
}

/** The migrated embedded database's dump, made once per migrations and PGlite version. */
async function migratedDump(): Promise<string> {
  const key = createHash('sha256')
    .update(pgliteVersion())
    .update(readFileSync(new URL('../src/platform/db/migrate.ts', import.meta.url)));
  for (const m of readMigrations()) key.update(`${m.name} ${m.checksum}\n`);
  key.update(LEAN_TEMPLATE);
  const file = join(tmpdir(), `pp-template-${key.digest('hex').slice(0, 16)}.tar`);
  if (!existsSync(file)) {
    const db = await openPglite(undefined);
    await migrate(db);
    await makeLean(db);
    // Written aside and renamed, so a run starting meanwhile never reads half a dump.
    const part = `${file}.${process.pid}`;
    await writeFile(part, Buffer.from(await (await db.dump()).arrayBuffer()));
    await db.close();
    await rename(part, file);
  }
  return file;
}

/** Names what `makeLean` does, in the dump's key: a change to it makes a new dump. */
const LEAN_TEMPLATE = 'checkpointed; template0 and template1 dropped; shared_buffers 16MB';

/**
 * Every test's app opens a copy of this dump, so its size is paid at each open: a checkpoint leaves
 * no WAL to replay at start, and the template databases (two thirds of the files, which no test
 * connects to or copies) are dropped, and the shared buffers a test's few rows need are allocated
 * (16 MB, not 160). An open fell from about 510 to 240 ms of CPU.
 */
async function makeLean(db: Awaited<ReturnType<typeof openPglite>>): Promise<void> {
  await db.exec(
    "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
  );
  await db.exec('drop database template0');
  await db.exec('drop database template1');
  await db.exec("alter system set shared_buffers = '16MB'");
  await db.exec('checkpoint');
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return JSON.parse(
    readFileSync(join(entry.slice(0, entry.lastIndexOf('/dist/')), 'package.json'), 'utf8'),
  ).version;
}

async function dropSchemas(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where starts_with(nspname, $1)`,
      [prefix],
    );
    for (const { name } of rows) await client.query(`drop schema if exists ${name} cascade`);
  } finally {
    await client.end();
  }
}
