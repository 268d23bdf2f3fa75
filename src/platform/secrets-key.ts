import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The key that seals secrets at rest. Production sets SECRETS_KEY; a development database gets a
 * generated key kept beside it (loudly), an in-memory one an ephemeral key.
 */
export function resolveSecretsKey(config: Config, log: Logger): Buffer {
  if (config.secretsKey) return config.secretsKey;
  if (config.database.kind === 'memory') return randomBytes(32);
  const file = join(config.dataDir, 'secrets.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  log.warn(
    { file },
    'SECRETS_KEY is not set: signing and webhook secrets are sealed with a development key kept in this file. ' +
      'Set SECRETS_KEY (openssl rand -base64 32) in production, and keep it: secrets sealed with a lost key cannot be opened.',
  );
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
