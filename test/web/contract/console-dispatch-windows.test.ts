import { describe, expect, it } from 'vitest';
import { productionOrder } from '../../dispatch/helpers.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';

const HOUR = 3_600_000;

describe('the console dispatch board and delivery windows', () => {
  const env = useConsoleWithPartner();

  it('flags an order that will miss its deadline, says from when a scheduled order is offered, and the order page shows the window', async () => {
    // Orders first (the partner signs on the real clock), then their windows written to the rows:
    // orders.create would refuse a window outside the service hours this test may run in.
    const missing = await productionOrder(env.s);
    const scheduled = await productionOrder(env.s);
    const db = env.p.app.platform.db;
    const deadline = new Date(env.clock.now + HOUR);
    await db.query('update delivery_orders set dropoff_deadline = $2 where id = $1', [
      missing,
      deadline,
    ]);
    await db.query(
      'update dispatch_jobs set dropoff_deadline = $2, miss_at = $3 where order_id = $1',
      [missing, deadline, new Date(env.clock.now - 1000)],
    );
    await db.query('update dispatch_jobs set due_at = $2 where order_id = $1', [
      scheduled,
      new Date(env.clock.now + 2 * HOUR),
    ]);
    await env.p.app.platform.dispatch!.windows.sweep();

    const { web } = await env.signedIn(['support']);
    const page = await web.get('/console/dispatch');
    expect(page.status).toBe(200);
    const row = (id: string) => {
      const from = page.text.indexOf(`<tr data-order="${id}"`);
      return page.text.slice(from, page.text.indexOf('</tr>', from));
    };
    expect(row(missing)).toContain('class="late"');
    expect(row(missing)).toContain('will miss its deadline');
    expect(row(scheduled)).toContain('offered from');
    expect(row(scheduled)).not.toContain('will miss');

    // The order's own page says its window; an order without one says nothing of it.
    expect((await web.get(`/console/orders/${missing}`)).text).toMatch(
      /<dd id="window">ready at once, due by \d{4}-\d\d-\d\d \d\d:\d\d/,
    );
    expect((await web.get(`/console/orders/${scheduled}`)).text).not.toContain('id="window"');
  });
});
