import { loadConfig } from './config.ts';
import { openDatabase } from './platform/db/index.ts';
import { startupFailure } from './startup-failure.ts';

/**
 * `npm run migrate`: applies the pending migrations and exits, so a deployment can migrate as a
 * step of its own before new instances start (instances also migrate at start, under a lock).
 */
async function main(): Promise<void> {
  const db = await openDatabase(loadConfig().database);
  try {
    const rows = await db.query<{ version: number; name: string; applied_at: Date }>('select version, name, applied_at from schema_migrations order by version');
    for (const r of rows) console.log(`${String(r.version).padStart(3, '0')}  ${r.name}  ${r.applied_at.toISOString()}`);
    console.log(`schema at version ${rows.at(-1)?.version ?? 0}`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(startupFailure(err));
  process.exit(1);
});
