import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { dashboardKey, newEmail, verifiedOwner, type WebClient } from '../../helpers/web.ts';

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The rows of one of the overview's tables, as text cells. */
function tableRows(html: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}">([\\s\\S]*?)</table>`).exec(html)?.[1];
  if (!table) return [];
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)![1]!;
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<td>([^<]*)<\/td>/g)].map((c) => c[1]!),
  );
}
const chartData = (html: string, id: string) =>
  JSON.parse(
    new RegExp(`id="${id}" class="daily-chart" data-chart="([^"]*)"`)
      .exec(html)![1]!
      .replace(/&quot;|&#34;/g, '"'),
  );

describe('dashboard overview: the 30-day charts and their tables', () => {
  let p: TestPlatform;
  let web: WebClient;
  let other: WebClient;
  const today = Date.parse(`${dayOf(Date.now())}T00:00:00Z`);
  const twoDaysAgo = dayOf(today - 2 * DAY);

  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    ({ web } = await verifiedOwner(p));
    ({ web: other } = await verifiedOwner(p, newEmail('other'), 'Kofi Hardware'));
    const key = await dashboardKey(web);
    const client = new PartnerClient({
      apiKey: key.apiKey,
      signingSecret: key.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
    });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ order_reference: `OV-${i}` }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.data.order_details.order_id);
    }
    const db = p.app.platform.db;
    const at = (ms: number) => new Date(ms).toISOString();
    const set = (id: string, status: string, created: number) =>
      db.query('update delivery_orders set status = $2, created_at = $3 where id = $1', [
        id,
        status,
        at(created),
      ]);
    const event = async (id: string, status: string, when: number) => {
      await db.query(
        'insert into delivery_order_events (order_id, version, status, at) values ($1, 99, $2, $3)',
        [id, status, at(when)],
      );
      // What the move to delivered writes beside its timeline entry (migration 072).
      if (status === 'delivered')
        await db.query('update delivery_orders set delivered_at = $2 where id = $1', [
          id,
          at(when),
        ]);
    };
    // Two days ago: two delivered (30 and 90 minutes), one failed.
    const morning = today - 2 * DAY + 8 * 3_600_000;
    await set(ids[0]!, 'delivered', morning);
    await event(ids[0]!, 'delivered', morning + 30 * 60_000);
    await set(ids[1]!, 'delivered', morning);
    await event(ids[1]!, 'delivered', morning + 90 * 60_000);
    await set(ids[2]!, 'failed', morning);
    await event(ids[2]!, 'failed', morning + 45 * 60_000);
    // Today: one cancelled (not finished), one still placed. Forty days ago: outside the window.
    await set(ids[3]!, 'cancelled', today + 60_000);
    await set(ids[4]!, 'placed', today + 120_000);
    await set(ids[5]!, 'delivered', today - 40 * DAY);
    await event(ids[5]!, 'delivered', today - 40 * DAY + 10 * 60_000);
  });
  afterAll(async () => {
    await p?.close();
  });

  it('shows exact daily figures computed from the seeded orders, as tables and chart data', async () => {
    const page = await web.get('/dashboard');
    expect(page.status).toBe(200);
    const orders = tableRows(page.text, 'orders-chart-table');
    expect(orders).toHaveLength(30);
    expect(orders.at(-1)).toEqual([dayOf(today), '2']);
    expect(orders.find((r) => r[0] === twoDaysAgo)).toEqual([twoDaysAgo, '3']);
    expect(orders.reduce((n, r) => n + Number(r[1]), 0)).toBe(5);
    expect(tableRows(page.text, 'success-chart-table').find((r) => r[0] === twoDaysAgo)).toEqual([
      twoDaysAgo,
      '2',
      '3',
      '66.7%',
    ]);
    expect(tableRows(page.text, 'success-chart-table').at(-1)).toEqual([
      dayOf(today),
      '0',
      '0',
      '—',
    ]);
    expect(tableRows(page.text, 'time-chart-table').find((r) => r[0] === twoDaysAgo)).toEqual([
      twoDaysAgo,
      '2',
      '60 min',
    ]);
    expect(tableRows(page.text, 'fees-chart-table')).toHaveLength(30);
    const data = chartData(page.text, 'success-chart');
    expect(data.days).toHaveLength(30);
    expect(data.series[0].values[27]).toBe(66.7);
    expect(data.series[0].values[29]).toBeNull();
    expect(chartData(page.text, 'orders-chart').series[0].values.at(-1)).toBe(2);
    // The chart script is our own asset; no inline script or style.
    expect(page.text).toMatch(/<script src="\/assets\/chart\.[^"]+\.js" defer><\/script>/);
    expect(page.text).not.toMatch(/<script>|<style|style="/);
  });

  it("never counts another partner's orders", async () => {
    const page = await other.get('/dashboard');
    expect(page.status).toBe(200);
    expect(tableRows(page.text, 'orders-chart-table').every((r) => r[1] === '0')).toBe(true);
    expect(tableRows(page.text, 'time-chart-table').every((r) => r[2] === '—')).toBe(true);
  });
});
