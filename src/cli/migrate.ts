import { ConfigError } from './args.ts';
import { table } from './output.ts';

/** What `partner-admin migrate` answers (also its `--json`). */
export interface MigrationReport {
  /** The highest applied migration (0 for an empty database). */
  schema_version: number;
  /** Versions this run applied. */
  applied_now: number[];
  migrations: { version: number; name: string; applied_at: string | null }[];
}

/**
 * Applies the pending migrations to the database the server's settings name (DATABASE_URL, DATA_DIR,
 * DATABASE_SCHEMA), as a deployment step of its own, or with `statusOnly` only reads which are applied.
 */
export async function migrateDatabase(
  env: NodeJS.ProcessEnv,
  statusOnly: boolean,
): Promise<MigrationReport> {
  // Loaded here: the API commands need neither the server's configuration nor the database code.
  const [
    { loadConfig, ConfigError: BadSetting },
    { openDatabase, migrate, migrationStatus },
    { startupFailure },
  ] = await Promise.all([
    import('../config.ts'),
    import('../platform/db/index.ts'),
    import('../startup-failure.ts'),
  ]);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (err) {
    throw err instanceof BadSetting ? new ConfigError(err.message) : err;
  }
  // A database out of reach, refusing the login or in use is one line naming what to fix.
  try {
    const db = await openDatabase(config.database, { migrate: false });
    try {
      const appliedNow = statusOnly ? [] : await migrate(db);
      const states = await migrationStatus(db);
      return {
        schema_version: Math.max(0, ...states.filter((s) => s.appliedAt).map((s) => s.version)),
        applied_now: appliedNow,
        migrations: states.map((s) => ({
          version: s.version,
          name: s.name,
          applied_at: s.appliedAt?.toISOString() ?? null,
        })),
      };
    } finally {
      await db.close();
    }
  } catch (err) {
    throw new Error(startupFailure(err));
  }
}

export function showMigrations(report: MigrationReport): string {
  const rows = table(
    report.migrations,
    {
      version: (m) => String(m.version).padStart(3, '0'),
      name: 'name',
      applied: (m) => m.applied_at ?? 'pending',
    },
    '(no migrations)',
  );
  const pending = report.migrations.filter((m) => m.applied_at === null).length;
  const summary =
    report.applied_now.length > 0
      ? `applied now: ${report.applied_now.join(', ')}`
      : pending > 0
        ? `${pending} pending: run partner-admin migrate`
        : 'nothing to apply';
  return `${rows}\n\nschema at version ${report.schema_version} (${summary})`;
}
