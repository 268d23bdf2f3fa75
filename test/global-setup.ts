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

/** Migrates one embedded database and dumps it, so each test's in-memory database starts from a copy. */
export default async function setup(project: TestProject): Promise<void> {
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
