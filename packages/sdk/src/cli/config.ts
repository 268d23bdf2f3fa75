import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What `ppctl configure` stores; the names match data/sandbox-credentials.json so that file can be read as is. */
export interface StoredConfig {
  api_key?: string;
  signing_secret?: string;
  base_url?: string;
  catalog_base_url?: string;
  webhook_secret?: string;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** The user's config directory for the CLI, per platform conventions; PARTNER_CONFIG_DIR wins. */
export function configDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env.PARTNER_CONFIG_DIR) return env.PARTNER_CONFIG_DIR;
  if (platform === 'win32')
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'partner-platform');
  if (platform === 'darwin')
    return join(home, 'Library', 'Application Support', 'partner-platform');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'partner-platform');
}

export const configFile = (env: NodeJS.ProcessEnv = process.env) =>
  join(configDir(env), 'config.json');

export function readConfig(env: NodeJS.ProcessEnv = process.env): StoredConfig {
  const file = configFile(env);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as StoredConfig;
}

/** Writes the config readable by the user only: directory 0700 when created, file 0600 (written whole, then renamed). */
export function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask; a directory we made is set exactly.
  if (created !== undefined) chmodSync(dir, 0o700);
  const file = join(dir, 'config.json');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}

export interface Credentials {
  apiKey: string;
  signingSecret: string;
  baseUrl: string;
  catalogBaseUrl?: string;
}

/** Environment variables override the stored config, so CI can run without `ppctl configure`. */
export function resolveCredentials(
  env: NodeJS.ProcessEnv = process.env,
): Credentials | { missing: string[] } {
  const stored = readConfig(env);
  const apiKey = env.PARTNER_API_KEY || stored.api_key;
  const signingSecret = env.PARTNER_SIGNING_SECRET || stored.signing_secret;
  const missing = [...(apiKey ? [] : ['API key']), ...(signingSecret ? [] : ['signing secret'])];
  if (!apiKey || !signingSecret) return { missing };
  const catalogBaseUrl = env.PARTNER_CATALOG_BASE_URL || stored.catalog_base_url;
  return {
    apiKey,
    signingSecret,
    baseUrl: env.PARTNER_BASE_URL || stored.base_url || DEFAULT_BASE_URL,
    ...(catalogBaseUrl ? { catalogBaseUrl } : {}),
  };
}

export const webhookSecret = (env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env.PARTNER_WEBHOOK_SECRET || readConfig(env).webhook_secret;

/** `pk_staging_abcd...wxyz`: enough to tell keys apart, never the whole key. */
export function maskKey(key: string): string {
  const m = /^(pk_(?:staging|production)_)(.*)$/.exec(key);
  const [prefix, rest] = m ? [m[1]!, m[2]!] : ['', key];
  return rest.length <= 8 ? `${prefix}****` : `${prefix}${rest.slice(0, 4)}…${rest.slice(-4)}`;
}
