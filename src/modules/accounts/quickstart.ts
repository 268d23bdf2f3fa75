import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MONEY_SCOPES } from '../../platform/auth/scopes.ts';
import type { Db } from '../../platform/db/index.ts';
import type { AccountsService } from './service.ts';

export const QUICKSTART_FILE = 'sandbox-credentials.json';
/** The playground's production key, in the same shape (what `ppctl configure --from` reads). */
export const PRODUCTION_QUICKSTART_FILE = 'production-credentials.json';

/** A playground's production key holds every scope, the money scopes (never implied by `*`) by name. */
const PLAYGROUND_PRODUCTION_SCOPES = ['*', ...MONEY_SCOPES];

/**
 * On an empty development database, creates a demo partner, app and staging key once and writes
 * them to a file only the user can read, so a newcomer can sign a first request at once. With
 * `production` (the local playground), the partner also gets production and a production key, in
 * a second file. Answers the paths of the files it wrote (none when the quick start had already
 * run); the secrets themselves are never printed.
 */
export async function ensureSandboxQuickstart(
  db: Db,
  accounts: AccountsService,
  dataDir: string,
  baseUrl: string,
  opts: { production?: boolean } = {},
): Promise<string[]> {
  const file = join(dataDir, QUICKSTART_FILE);
  if (existsSync(file)) return [];
  const [{ n }] = (await db.query<{ n: number }>('select count(*)::int as n from partners')) as [
    { n: number },
  ];
  if (n > 0) return [];
  const partner = await accounts.createPartner(
    opts.production ? 'Playground Demo' : 'Sandbox Demo',
  );
  const { app, webhookSecret } = await accounts.createApp(partner.id, { name: 'Demo app' });
  const staging = await accounts.createKey(app.id, { environment: 'staging', scopes: ['*'] });
  mkdirSync(dataDir, { recursive: true });
  const write = (name: string, created: typeof staging) => {
    const credentials = {
      base_url: baseUrl,
      partner_id: partner.id,
      app_id: app.id,
      key_id: created.key.id,
      api_key: created.apiKey,
      signing_secret: created.signingSecret,
      webhook_secret: webhookSecret,
    };
    const path = join(dataDir, name);
    writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return path;
  };
  const written = [write(QUICKSTART_FILE, staging)];
  if (opts.production) {
    await accounts.updatePartner(partner.id, { production_active: true });
    written.push(
      write(
        PRODUCTION_QUICKSTART_FILE,
        await accounts.createKey(app.id, {
          environment: 'production',
          scopes: PLAYGROUND_PRODUCTION_SCOPES,
        }),
      ),
    );
  }
  return written;
}
