import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, readMigrations } from '../src/platform/db/migrate.ts';
import { openPglite } from '../src/platform/db/pglite.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string | null;
  }
}

/**
 * Brings dist/ up to date with src/ (tests that run the CLIs or the compiled server must run what is
 * in the tree), then migrates one embedded database and dumps it, so each test's in-memory database
 * starts from a copy. The dump is named by the migrations and the PGlite version it was made with, so
 * the tiers of one run, and the runs after it, reuse it until a migration changes.
 */
export default async function setup(project: TestProject): Promise<void> {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}${build.stderr}`);
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    project.provide('pgliteTemplate', null);
    return;
  }
  const key = createHash('sha256')
    .update(pgliteVersion())
    .update(readFileSync(new URL('../src/platform/db/migrate.ts', import.meta.url)));
  for (const m of readMigrations()) key.update(`${m.name} ${m.checksum}\n`);
  const file = join(tmpdir(), `pp-template-${key.digest('hex').slice(0, 16)}.tar`);
  if (!existsSync(file)) {
    const db = await openPglite(undefined);
    await migrate(db);
    // Written aside and renamed, so a run starting meanwhile never reads half a dump.
    const part = `${file}.${process.pid}`;
    await writeFile(part, Buffer.from(await (await db.dump()).arrayBuffer()));
    await db.close();
    await rename(part, file);
  }
  project.provide('pgliteTemplate', file);
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return JSON.parse(
    readFileSync(join(entry.slice(0, entry.lastIndexOf('/dist/')), 'package.json'), 'utf8'),
  ).version;
}
