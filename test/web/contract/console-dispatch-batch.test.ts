import { describe, expect, it } from 'vitest';
import { courierNear, productionOrder } from '../../dispatch/helpers.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { csrfOf } from '../../helpers/web.ts';

describe('the console dispatch board and multi-drop batches', () => {
  const env = useConsoleWithPartner();

  it("shows a batch's jobs under one offer, and reassigning one of them makes it single", async () => {
    const { web } = await env.signedIn(['support']);
    const a = await courierNear(env.p, 1, env.clock.now);
    const [x, y] = [await productionOrder(env.s), await productionOrder(env.s)];
    await env.p.app.platform.dispatch!.offers.tick();
    const page = await web.get('/console/dispatch');
    expect(page.status).toBe(200);
    // One courier cell for the batch, spanning its two jobs, in route order.
    expect(page.text.match(/batch of 2 drops/g)).toHaveLength(1);
    const offered = page.text.slice(page.text.indexOf('<h2>Offered</h2>'));
    const column = offered.slice(0, offered.indexOf('<h2>', 5));
    expect(column.match(new RegExp(`title="${a.id}"`, 'g'))).toHaveLength(1);
    expect(page.text).toMatch(/rowspan="2" data-batch="ofr_/);
    const drops = [
      ...page.text.matchAll(/data-order="(dlv_[^"]+)"[\s\S]*?data-drop>drop (\d) of 2/g),
    ];
    expect(drops.map((m) => m[1]).sort()).toEqual([x, y].sort());

    const b = await courierNear(env.p, 2, env.clock.now);
    const moved = await web.post(`/console/dispatch/${y}/assign`, {
      _csrf: csrfOf(page.text),
      courier_id: b.id,
    });
    expect(moved.status).toBe(200);
    expect(moved.text).toContain('Assigned.');
    expect(moved.text).not.toContain('batch of');
    expect(moved.text).not.toContain('data-drop');
    const board = (await env.p.admin('GET', '/dispatch/board')).body.data;
    expect(board.find((e: any) => e.order_id === y)).toMatchObject({
      courier_id: b.id,
      batch_id: null,
    });
    expect(board.find((e: any) => e.order_id === x)).toMatchObject({ offered_to: a.id });
  });
});
