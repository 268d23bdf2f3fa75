import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../platform/db/index.ts';
import type { AccountsService } from './service.ts';

export const QUICKSTART_FILE = 'sandbox-credentials.json';

/**
 * On an empty development database, creates a demo partner, app and staging key once and writes
 * them to a file only the user can read, so a newcomer can sign a first request at once. Answers
 * the file's path when it created one; the secret itself is never printed.
 */
export async function ensureSandboxQuickstart(db: Db, accounts: AccountsService, dataDir: string, baseUrl: string): Promise<string | null> {
  const file = join(dataDir, QUICKSTART_FILE);
  if (existsSync(file)) return null;
  const [{ n }] = (await db.query<{ n: number }>('select count(*)::int as n from partners')) as [{ n: number }];
  if (n > 0) return null;
  const partner = await accounts.createPartner('Sandbox Demo');
  const { app, webhookSecret } = await accounts.createApp(partner.id, { name: 'Demo app' });
  const { key, apiKey, signingSecret } = await accounts.createKey(app.id, { environment: 'staging', scopes: ['*'] });
  mkdirSync(dataDir, { recursive: true });
  const credentials = {
    base_url: baseUrl,
    partner_id: partner.id,
    app_id: app.id,
    key_id: key.id,
    api_key: apiKey,
    signing_secret: signingSecret,
    webhook_secret: webhookSecret,
  };
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}
