import { describe, expect, it } from 'vitest';
import { courierNear, productionOrder } from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { boardLines } from '../../helpers/dispatch-read.ts';
import { csrfOf } from '../../helpers/web.ts';

describe('the console dispatch board', () => {
  const env = useConsoleWithPartner();
  const { signedIn } = env;
  const assignForm = (html: string, orderId: string) =>
    new RegExp(`action="/console/dispatch/${orderId}/assign"`).test(html);

  it('shows late, offered and in-progress orders; support assigns and reassigns by hand (audited); finance only reads', async () => {
    const { web } = await signedIn(['support']);
    const late = await productionOrder(env.s);
    env.clock.now += 11 * 60_000;
    await env.p.app.platform.dispatch!.offers.tick();
    const a = await courierNear(env.p, 1, env.clock.now);
    const b = await courierNear(env.p, 2, env.clock.now);
    const page = await web.get('/console/dispatch');
    expect(page.status).toBe(200);
    expect(page.text).toContain('1 order late');
    expect(assignForm(page.text, late)).toBe(true);
    expect(page.text).toContain(`value="${a.id}"`);

    const assigned = await web.post(`/console/dispatch/${late}/assign`, {
      _csrf: csrfOf(page.text),
      courier_id: a.id,
    });
    expect(assigned.status).toBe(200);
    expect(assigned.text).toContain('Assigned.');
    expect(assigned.text).toContain('No order is late.');
    // The holder is not offered as their own reassignment.
    const row = assigned.text.slice(assigned.text.indexOf(`/console/dispatch/${late}/assign`));
    expect(row.slice(row.indexOf('<select'), row.indexOf('</select>'))).not.toContain(
      `value="${a.id}"`,
    );
    const again = await web.post(`/console/dispatch/${late}/assign`, {
      _csrf: csrfOf(assigned.text),
      courier_id: b.id,
      holder: a.id,
    });
    expect(again.text).toContain('Assigned.');
    const audit = await audited(env.p, { action: 'dispatch_order.assign', target_id: late });
    expect(audit.length).toBe(2);

    const same = await web.post(`/console/dispatch/${late}/assign`, {
      _csrf: csrfOf(again.text),
      courier_id: b.id,
      holder: b.id,
    });
    expect(same.status).toBe(409);
    expect(same.text).toContain('Not assigned');
    for (const bad of ['cou_nope', 'a\u0000b', 'x'.repeat(41)]) {
      for (const form of [
        { courier_id: bad, holder: '' },
        { courier_id: a.id, holder: bad },
      ]) {
        expect(
          (
            await web.post(`/console/dispatch/${late}/assign`, {
              _csrf: csrfOf(again.text),
              ...form,
            })
          ).status,
        ).toBe(400);
      }
    }
    expect(
      (
        await web.post(`/console/dispatch/dlv_nope/assign`, {
          _csrf: csrfOf(again.text),
          courier_id: a.id,
        })
      ).status,
    ).toBe(404);
    expect((await web.post(`/console/dispatch/${late}/assign`, { courier_id: a.id })).status).toBe(
      403,
    );

    const finance = (await signedIn(['finance'])).web;
    const read = await finance.get('/console/dispatch');
    expect(read.status).toBe(200);
    expect(read.text).toContain(late);
    expect(assignForm(read.text, late)).toBe(false);
    expect(
      (
        await finance.post(`/console/dispatch/${late}/assign`, {
          _csrf: csrfOf(read.text),
          courier_id: a.id,
        })
      ).status,
    ).toBe(403);
  });

  it('refuses an assignment made from a board that no longer shows who holds the order, and changes nothing', async () => {
    const { web } = await signedIn(['support']);
    // The partner signs with the wall clock; the test before moved the server's on.
    env.clock.now = Date.now();
    const order = await productionOrder(env.s);
    const a = await courierNear(env.p, 1, env.clock.now);
    const b = await courierNear(env.p, 2, env.clock.now);
    const page = await web.get('/console/dispatch');
    expect(page.text).toContain('name="holder" value=""');
    // Courier A takes the order while the operator looks at the board showing it unassigned.
    await env.p.app.platform.dispatch!.service.assign(order, a.id);
    const stale = await web.post(`/console/dispatch/${order}/assign`, {
      _csrf: csrfOf(page.text),
      courier_id: b.id,
      holder: '',
    });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain(`Not assigned: Order ${order} is now held by courier ${a.id}`);
    const holders = (await boardLines(env.p, order)).map((e) => ({ courier_id: e.courier_id }));
    expect(holders).toEqual([{ courier_id: a.id }]);
    // The refreshed board shows A, and reassigning from it works.
    expect(stale.text).toContain(`name="holder" value="${a.id}"`);
    const moved = await web.post(`/console/dispatch/${order}/assign`, {
      _csrf: csrfOf(stale.text),
      courier_id: b.id,
      holder: a.id,
    });
    expect(moved.text).toContain('Assigned.');
  });
});
