import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, embeddedPass, SECRETS_KEY } from '../../helpers/harness.ts';
import { spawnServer } from '../../helpers/process.ts';

describe.runIf(embeddedPass)('sandbox quick start', () => {
  it('creates a demo partner and staging key once on an empty development database, in a 0600 file, and never prints the secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-quick-'));
    try {
      const first = await spawnServer({
        DATA_DIR: dir,
        ADMIN_TOKEN,
        SECRETS_KEY,
        LOG_LEVEL: 'info',
      });
      await new Promise((r) => setTimeout(r, 300));
      const file = join(dir, 'sandbox-credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const creds = JSON.parse(readFileSync(file, 'utf8'));
      expect(first.output()).toContain(file);
      expect(first.output()).not.toContain(creds.signing_secret);
      expect(first.output()).not.toContain(creds.api_key);
      const client = new PartnerClient({
        apiKey: creds.api_key,
        signingSecret: creds.signing_secret,
        baseUrl: first.url,
      });
      expect(await client.delivery.health()).toEqual({ status: 'ok' });
      first.child.kill('SIGTERM');
      await first.exited;

      const second = await spawnServer({
        DATA_DIR: dir,
        ADMIN_TOKEN,
        SECRETS_KEY,
        LOG_LEVEL: 'info',
      });
      const partners = await fetch(`${second.url}/admin/v1/partners`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(((await partners.json()) as any).partners).toHaveLength(1);
      expect(JSON.parse(readFileSync(file, 'utf8')).api_key).toBe(creds.api_key);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
