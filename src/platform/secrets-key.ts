import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from './logger.ts';

export interface SecretsKeySource {
  /** The configured key, if any. */
  secretsKey: Buffer | undefined;
  /** Where a development key is kept; undefined for an in-memory database, whose key dies with it. */
  keyDir: string | undefined;
  /**
   * A shared database (PostgreSQL) needs the configured key: instances that each made their own
   * would seal secrets the others cannot open, and every signed call would then be refused.
   */
  required?: boolean;
}

/** SECRETS_KEY is missing where it is required: the process refuses to start, with this one line. */
export class SecretsKeyMissingError extends Error {
  override readonly name = 'SecretsKeyMissingError';
  constructor() {
    super(
      'SECRETS_KEY is not set: with a PostgreSQL DATABASE_URL every instance must seal secrets with the same key. ' +
        'Make one with `openssl rand -base64 32`, set it as SECRETS_KEY for every instance, and keep it safe.',
    );
  }
}

/**
 * The key that seals secrets at rest. Production sets SECRETS_KEY (PostgreSQL requires it); an
 * embedded development database gets a generated key kept beside it (loudly), an in-memory one an
 * ephemeral key.
 */
export function resolveSecretsKey(
  { secretsKey, keyDir, required }: SecretsKeySource,
  log: Logger,
): Buffer {
  if (secretsKey) return secretsKey;
  if (required) throw new SecretsKeyMissingError();
  if (keyDir === undefined) return randomBytes(32);
  const file = join(keyDir, 'secrets.key');
  if (!existsSync(file)) {
    mkdirSync(keyDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  log.warn(
    { file },
    'SECRETS_KEY is not set: signing and webhook secrets are sealed with a development key kept in this file. ' +
      'Set SECRETS_KEY (openssl rand -base64 32) in production, and keep it: secrets sealed with a lost key cannot be opened.',
  );
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
