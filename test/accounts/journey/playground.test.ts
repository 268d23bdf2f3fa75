import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import { describe, expect, it } from 'vitest';
import { ensureSandboxQuickstart } from '../../../src/modules/accounts/index.ts';
import { embeddedPass, startPlatform } from '../../helpers/harness.ts';
import { ROOT, spawnServer } from '../../helpers/process.ts';

// `npm run demo` runs `node dist/demo.js` at the repository root: here in a directory of its own.
const demo = (cwd: string) =>
  spawnServer(
    { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
    { command: [process.execPath, `${ROOT}dist/demo.js`], cwd },
  );

describe('the playground (npm run demo)', () => {
  it.runIf(embeddedPass)(
    'creates a partner with staging and production keys in 0600 files (never printed) and the demo catalog, once, and says what to try next',
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'pp-demo-'));
      try {
        const first = await demo(cwd);
        const dir = join(cwd, 'data', 'demo');
        const files = ['sandbox-credentials.json', 'production-credentials.json'].map((f) =>
          join(dir, f),
        );
        for (const file of files) expect(statSync(file).mode & 0o777).toBe(0o600);
        const [staging, production] = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
        for (const secret of [
          staging.api_key,
          staging.signing_secret,
          production.api_key,
          production.signing_secret,
          production.webhook_secret,
        ])
          expect(first.output()).not.toContain(secret);
        expect([staging.api_key, production.api_key]).toEqual([
          expect.stringMatching(/^pk_staging_/),
          expect.stringMatching(/^pk_production_/),
        ]);
        expect(production.base_url).toMatch(/^http:\/\/localhost:\d+$/);
        expect(first.output()).toContain(
          '  Credentials data/demo/production-credentials.json  (readable only by you)',
        );
        expect(first.output()).toContain(
          '    npx ppctl configure --from data/demo/production-credentials.json',
        );
        expect(first.output()).toContain('"Your first cod sale"');

        // The production key works at once: its wallet, and the catalog it may sell from.
        const client = new PartnerClient({
          apiKey: production.api_key,
          signingSecret: production.signing_secret,
          baseUrl: first.url,
        });
        expect((await client.delivery.wallet.balance()).data.balance_ghs).toBe(0);
        expect((await client.catalog.list({ limit: 200 })).data.count).toBe(54);
        first.child.kill('SIGTERM');
        expect(await first.exited).toBe(0);

        // A second start keeps the same partner, keys and catalog, and still points at the credentials.
        const second = await demo(cwd);
        expect(second.output()).not.toContain('demo catalog loaded');
        expect(second.output()).toContain(
          'npx ppctl configure --from data/demo/production-credentials.json',
        );
        expect(JSON.parse(readFileSync(files[1]!, 'utf8')).api_key).toBe(production.api_key);
        const again = new PartnerClient({
          apiKey: production.api_key,
          signingSecret: production.signing_secret,
          baseUrl: second.url,
        });
        expect((await again.catalog.list({ limit: 200 })).data.count).toBe(54);
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    },
    180_000,
  );

  it("gives the quick start's partner production and a key holding the money scopes by name (on either database)", async () => {
    const p = await startPlatform();
    const dir = mkdtempSync(join(tmpdir(), 'pp-quick-prod-'));
    try {
      const { db, accounts, config } = p.app.platform;
      const files = await ensureSandboxQuickstart(db, accounts, dir, config.publicBaseUrl, {
        production: true,
      });
      expect(files).toEqual([
        join(dir, 'sandbox-credentials.json'),
        join(dir, 'production-credentials.json'),
      ]);
      const production = JSON.parse(readFileSync(files[1]!, 'utf8'));
      expect((await accounts.getPartner(production.partner_id)).production_active).toBe(true);
      const scopes = (
        await db.query<{ scopes: string[] }>('select scopes from api_keys where id = $1', [
          production.key_id,
        ])
      )[0]!.scopes;
      expect([...scopes].sort()).toEqual([
        '*',
        'delivery:wallet:spend',
        'delivery:wallet:topup',
        'payouts:read',
        'safe:write',
      ]);
      const client = new PartnerClient({
        apiKey: production.api_key,
        signingSecret: production.signing_secret,
        baseUrl: p.url,
      });
      expect((await client.delivery.wallet.topup.initiate(50)).data.checkout_url).toContain(
        '/sandbox/checkout/',
      );
      // Once: a second call (a restart) writes nothing.
      expect(
        await ensureSandboxQuickstart(db, accounts, dir, config.publicBaseUrl, {
          production: true,
        }),
      ).toEqual([]);
    } finally {
      await p.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
