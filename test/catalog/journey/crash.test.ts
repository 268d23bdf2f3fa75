import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { ADMIN_TOKEN, onPostgres, SECRETS_KEY } from '../../helpers/harness.ts';
import { adminCall, seedDataDir, spawnServer, type ServerProcess } from '../../helpers/process.ts';
import { orderBody, productBody, SALE_SCOPES, vendorBody } from '../helpers.ts';

const admin = (url: string, method: string, path: string, body?: unknown) =>
  adminCall(url, ADMIN_TOKEN, method, path, body);

async function setUp(server: ServerProcess) {
  const partner = await admin(server.url, 'POST', '/partners', { name: 'Crash shop' });
  await admin(server.url, 'PATCH', `/partners/${partner.partner_id}`, {
    production_active: true,
    rate_limits: { reads_per_minute: 100000, writes_per_minute: 100000 },
  });
  const app = await admin(server.url, 'POST', `/partners/${partner.partner_id}/apps`, {
    name: 'App',
  });
  const key = await admin(server.url, 'POST', `/apps/${app.app_id}/keys`, {
    environment: 'production',
    scopes: SALE_SCOPES,
  });
  const vendor = await admin(server.url, 'POST', '/vendors', vendorBody());
  const product = await admin(
    server.url,
    'POST',
    '/products',
    productBody(vendor.vendor_id, { variants: [{ label: 'One', price_ghs: 50, stock: 100_000 }] }),
  );
  const shop = {
    vendorId: vendor.vendor_id as string,
    productId: product.product_id as string,
    variantId: product.variants[0].variant_id as string,
  };
  return { key, shop };
}

/** Whether the sales job has finished a run in this server process (its job metric). */
async function salesJobRan(url: string): Promise<boolean> {
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return /^job_last_success_timestamp_seconds\{job="safe-catalog-sales"\} /m.test(await res.text());
}

/** Sales still owed a delivery order (the operator list, every page). */
async function undispatched(url: string): Promise<string[]> {
  const owed: string[] = [];
  for (let after: string | null = null; ; ) {
    const page = await admin(
      url,
      'GET',
      `/sales?state=awaiting_delivery&limit=200${after ? `&after=${after}` : ''}`,
    );
    for (const s of page.sales) if (s.delivery_order_id === null) owed.push(s.sale_id);
    after = page.next_after;
    if (!after) return owed;
  }
}

/** The storage of this run: the machine's PostgreSQL in a schema of its own, or an embedded directory. */
function storage(): { env: Record<string, string>; cleanup: () => void } {
  if (onPostgres)
    return {
      env: {
        DATABASE_URL: process.env.DATABASE_URL!,
        DATABASE_SCHEMA: `t_${randomBytes(6).toString('hex')}`,
      },
      cleanup: () => {},
    };
  const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-sale-crash-')));
  return { env: { DATA_DIR: dir }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('a SIGKILL in the middle of concurrent cash-on-delivery sales', () => {
  it('leaves every acknowledged sale with exactly one linked delivery order, settleable on verify, and no order without its sale', async () => {
    const store = storage();
    try {
      const env = {
        ...store.env,
        ADMIN_TOKEN,
        SECRETS_KEY,
        SANDBOX_QUICKSTART: 'off',
        SANDBOX_COURIER_STEP_SECONDS: '0',
      };
      const server = await spawnServer(env);
      const { key, shop } = await setUp(server);
      const client = new PartnerClient({
        apiKey: key.api_key,
        signingSecret: key.signing_secret,
        baseUrl: server.url,
      });
      const acknowledged: string[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          try {
            const res = await client.send<any>('POST', '/api/v1/safe-catalog/orders.create', {
              body: orderBody(shop),
            });
            if (res.status === 201) acknowledged.push(res.body.data.sale_id);
          } catch {
            return; // the server is gone
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 10));
      server.child.kill('SIGKILL');
      await server.exited;
      stop = true;
      await Promise.all(workers);

      // After the restart, the sales job gives every sale that lost its dispatch an order.
      const restarted = await spawnServer(env);
      const again = new PartnerClient({
        apiKey: key.api_key,
        signingSecret: key.signing_secret,
        baseUrl: restarted.url,
      });
      const deliveryOf = async (saleId: string) =>
        (
          await again.send<any>('GET', '/api/v1/safe-catalog/orders.get', {
            query: { sale_id: saleId },
          })
        ).body.data;
      const deadline = Date.now() + 60_000;
      let pending = [...acknowledged];
      while (pending.length > 0 && Date.now() < deadline) {
        const sales = await Promise.all(pending.map(deliveryOf));
        pending = sales.filter((s) => s.delivery === null).map((s) => s.sale_id);
        if (pending.length > 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect(pending).toEqual([]);

      // Each one settles once its delivery is delivered.
      for (const saleId of acknowledged) {
        const { delivery } = await deliveryOf(saleId);
        expect(delivery).toMatchObject({
          order_id: expect.stringMatching(/^dlv_/),
          status: 'placed',
        });
        for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered']) {
          const moved = await fetch(
            `${restarted.url}/admin/v1/delivery/orders/${delivery.order_id}/status`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${ADMIN_TOKEN}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ status }),
            },
          );
          expect(moved.status).toBe(200);
        }
        const verified = await again.send<any>('POST', '/api/v1/safe-catalog/orders.verify', {
          body: { sale_id: saleId },
        });
        expect(verified.body.data).toMatchObject({
          state: 'confirmed',
          settled: true,
          payment_status: 'collected',
          delivery_status: 'delivered',
        });
      }
      // Sales written but never acknowledged are picked up too: the job (5 s grace, first run one
      // 5 s period after the start) has run since the restart and left none without its order.
      await expect
        .poll(
          async () => (await salesJobRan(restarted.url)) && (await undispatched(restarted.url)),
          {
            timeout: 60_000,
            interval: 250,
          },
        )
        .toEqual([]);
      restarted.child.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);

      const db = await openDatabase(loadConfig(store.env).database);
      try {
        // Every sale written (acknowledged or not) that still wants goods delivered has its one order, and every platform order its sale.
        expect(
          await db.query(
            "select id from sales where state in ('awaiting_delivery', 'confirmed') and delivery_order_id is null",
          ),
        ).toEqual([]);
        expect(
          await db.query(
            'select s.id from sales s join delivery_orders d on d.order_reference = s.delivery_reference group by s.id having count(*) <> 1',
          ),
        ).toEqual([]);
        expect(
          await db.query(
            "select d.id from delivery_orders d where d.order_reference like 'safe-%' and not exists (select 1 from sales s where s.delivery_order_id = d.id)",
          ),
        ).toEqual([]);
        // Stock still held equals what open sales hold.
        const [held] = await db.query<{ reserved: number; open: number }>(
          `select (select reserved from product_variants where id = $1) as reserved,
                  (select coalesce(sum(i.quantity), 0)::int from sales s join sale_items i on i.sale_id = s.id where s.state = 'awaiting_delivery') as open`,
          [shop.variantId],
        );
        expect(held!.reserved).toBe(held!.open);
        expect(
          await db.query(
            'select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0',
          ),
        ).toEqual([]);
      } finally {
        await db.close();
      }
    } finally {
      store.cleanup();
    }
  }, 240_000);
});
