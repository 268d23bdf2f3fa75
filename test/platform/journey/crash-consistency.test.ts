import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { ADMIN_TOKEN, embeddedPass, SECRETS_KEY } from '../../helpers/harness.ts';
import { adminCall, seedDataDir, spawnServer, type ServerProcess } from '../../helpers/process.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';

const admin = (url: string, method: string, path: string, body?: unknown) =>
  adminCall(url, ADMIN_TOKEN, method, path, body);

async function productionClient(server: ServerProcess): Promise<PartnerClient> {
  const partner = await admin(server.url, 'POST', '/partners', { name: 'Crash load' });
  await admin(server.url, 'PATCH', `/partners/${partner.partner_id}`, {
    production_active: true,
    credit_limit_ghs: 200,
    rate_limits: { reads_per_minute: 100000, writes_per_minute: 100000 },
  });
  const app = await admin(server.url, 'POST', `/partners/${partner.partner_id}/apps`, {
    name: 'App',
  });
  const key = await admin(server.url, 'POST', `/apps/${app.app_id}/keys`, {
    environment: 'production',
    scopes: ['delivery:read', 'delivery:write', 'delivery:wallet:topup', 'delivery:wallet:spend'],
  });
  return new PartnerClient({
    apiKey: key.api_key,
    signingSecret: key.signing_secret,
    baseUrl: server.url,
  });
}

describe.runIf(embeddedPass)(
  'a SIGKILL in the middle of creates, wallet spends and top-up verifies',
  () => {
    it('leaves every acknowledged order, no debit without its order, no credit twice, and balanced books', async () => {
      const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-crash-')));
      try {
        const env = {
          DATA_DIR: dir,
          ADMIN_TOKEN,
          SECRETS_KEY,
          REFUND_INTERVAL_MS: '0',
          SANDBOX_QUICKSTART: 'off',
          SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on',
        };
        const server = await spawnServer(env);
        const client = await productionClient(server);
        const acknowledged: string[] = [];
        let stop = false;
        const paid = () => {
          const body = orderBody({ payment: { payer: 'partner' } });
          body.pickup.coordinates = ACCRA_CENTRAL;
          body.delivery.coordinates = EAST_LEGON;
          return body;
        };
        const worker = async (kind: number) => {
          while (!stop) {
            try {
              if (kind === 0) {
                const t = await client.send<any>('POST', '/api/v1/delivery/wallet.topup.initiate', {
                  body: { amount_ghs: 100 },
                });
                if (t.status !== 201) continue;
                await fetch(`${t.body.data.checkout_url}/pay`, {
                  method: 'POST',
                  headers: { accept: 'application/json' },
                });
                await client.send('POST', '/api/v1/delivery/wallet.topup.verify', {
                  body: { client_reference: t.body.data.client_reference },
                });
              } else {
                const res = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
                  body: kind === 1 ? paid() : orderBody(),
                });
                if (res.status === 201) acknowledged.push(res.body.data.order_details.order_id);
              }
            } catch {
              return; // the server is gone
            }
          }
        };
        const workers = [0, 1, 1, 2].map(worker);
        while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 20));
        server.child.kill('SIGKILL');
        await server.exited;
        stop = true;
        await Promise.all(workers);

        // The next start recovers the directory; then the books are read straight from it.
        const restarted = await spawnServer(env);
        restarted.child.kill('SIGTERM');
        expect(await restarted.exited).toBe(0);
        const db = await openDatabase(loadConfig({ DATA_DIR: dir }).database);
        try {
          const found = await db.query<{ id: string }>(
            'select id from delivery_orders where id = any($1)',
            [acknowledged],
          );
          expect(found).toHaveLength(acknowledged.length);
          const orphanDebits = await db.query(
            "select j.subject_id from ledger_journals j left join delivery_orders o on o.id = j.subject_id where j.kind = 'order_fee' and o.id is null",
          );
          expect(orphanDebits).toEqual([]);
          const unpaidOrders = await db.query(
            "select o.id from delivery_orders o left join ledger_journals j on j.kind = 'order_fee' and j.subject_id = o.id where o.payer = 'partner' and j.id is null",
          );
          expect(unpaidOrders).toEqual([]);
          const credits = await db.query<{ n: number }>(
            "select count(*)::int as n from wallet_topups t join ledger_journals j on j.kind = 'wallet_topup' and j.subject_id = t.id",
          );
          const credited = await db.query<{ n: number }>(
            "select count(*)::int as n from wallet_topups where status = 'credited'",
          );
          expect(credits[0]!.n).toBe(credited[0]!.n);
          expect(
            await db.query(
              'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
            ),
          ).toEqual([]);
          expect(
            await db.query(`select w.partner_id from wallets w left join ledger_entries e on e.account = 'wallet:' || w.partner_id
                          group by w.partner_id, w.balance_pesewas having w.balance_pesewas <> coalesce(sum(e.amount_pesewas), 0)`),
          ).toEqual([]);
        } finally {
          await db.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
