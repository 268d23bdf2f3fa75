import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/platform/db/migrate.ts';
import { openPglite } from '../src/platform/db/pglite.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string | null;
  }
}

/**
 * Brings dist/ up to date with src/ (tests that run the CLIs or the compiled server must run what is
 * in the tree), then migrates one embedded database and dumps it, so each test's in-memory database
 * starts from a copy.
 */
export default async function setup(project: TestProject): Promise<void> {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}${build.stderr}`);
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    project.provide('pgliteTemplate', null);
    return;
  }
  const db = await openPglite(undefined);
  await migrate(db);
  const file = join(tmpdir(), `pp-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
}
