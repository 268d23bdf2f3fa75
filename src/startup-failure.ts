import { ConfigError } from './config.ts';
import { StorageNotWritableError } from './integrations/storage/index.ts';
import { DataDirLockedError } from './platform/db/lock.ts';
import { MigrationChangedError } from './platform/db/migrate.ts';
import { isConnectionError } from './platform/db/sqlstate.ts';
import { errorMessage } from './platform/logger.ts';
import { SecretsKeyMissingError } from './platform/secrets-key.ts';

const LISTEN_CODES = new Set(['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES']);

/**
 * What a process (server, worker, migrate) prints when it cannot start. A mistake in its
 * surroundings (a setting; a database that cannot be reached, refuses the login or no longer
 * matches the migrations; a data directory or port in use) is one plain line naming what to fix.
 * Anything else is a bug and keeps its stack.
 */
export function startupFailure(err: unknown): string {
  if (
    err instanceof ConfigError ||
    err instanceof DataDirLockedError ||
    err instanceof MigrationChangedError ||
    err instanceof SecretsKeyMissingError ||
    err instanceof StorageNotWritableError
  ) {
    return err.message;
  }
  const driverError = isConnectionError(err) ? err : (err as { cause?: unknown } | null)?.cause;
  if (isConnectionError(driverError))
    return `cannot reach the database: ${errorMessage(driverError)} (check DATABASE_URL and that PostgreSQL is up)`;
  const code = (err as { code?: unknown } | null)?.code;
  // SQLSTATE class 28 is a refused login, 3D000 a database that does not exist.
  if (typeof code === 'string' && (code.startsWith('28') || code === '3D000')) {
    return `the database refused the connection: ${errorMessage(err)} (check DATABASE_URL)`;
  }
  if (typeof code === 'string' && LISTEN_CODES.has(code))
    return `cannot listen: ${errorMessage(err)} (check HOST, PORT and METRICS_PORT)`;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
