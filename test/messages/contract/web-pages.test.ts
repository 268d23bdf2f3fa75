import { describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { csrfOf, partnerDashboard } from '../../helpers/web.ts';

// The dashboard's texts-to-recipients page (an app's settings) and the console's order page (each
// text, its status and cost).
describe('recipient texts on the web', () => {
  const c = useConsoleWithPartner();

  it('the dashboard saves which texts go, the sender name and the language, refusing a bad sender name', async () => {
    const d = await partnerDashboard(c.p);
    const url = `/dashboard/apps/${d.appId}/messages`;
    const page = await d.web.get(url);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/value="assigned" checked/);
    expect(page.text).toContain('Texts are free for now.');
    const form = (fields: Array<[string, string]>) =>
      d.web.post(url, [['_csrf', csrfOf(page.text)], ...fields]);
    const saved = await form([
      ['kind', 'assigned'],
      ['kind', 'delivered'],
      ['sender_name', 'Adwoa Shop'],
      ['language', 'tw'],
    ]);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved.');
    expect(await c.p.app.platform.messages!.service.preferences(d.appId)).toEqual({
      kinds: { assigned: true, courier_near: false, delivered: true, delivery_failed: false },
      senderName: 'Adwoa Shop',
      language: 'tw',
    });
    const bad = await form([
      ['sender_name', 'Adwoa Bakery Shop'],
      ['language', 'en'],
    ]);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/class="error"/);
    expect(
      (
        await form([
          ['kind', 'marketing'],
          ['language', 'en'],
        ])
      ).status,
    ).toBe(400);
    expect((await c.p.app.platform.messages!.service.preferences(d.appId)).senderName).toBe(
      'Adwoa Shop',
    );
    const other = await partnerDashboard(c.p, 'Other Partner');
    expect((await other.web.get(url)).status).toBe(404);
  });

  it("the console's order page lists each text with its status and cost", async () => {
    const res = await c.s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody(),
    });
    const id = res.body.data.order_details.order_id;
    const courier = await courierNear(c.p, 0, c.clock.now);
    await c.p.app.platform.dispatch!.service.assign(id, courier.id);
    const { web } = await c.signedIn(['support']);
    const page = await web.get(`/console/orders/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<td>assigned<\/td><td>sms<\/td><td>sent<\/td><td>\d<\/td><td>GHS 0\.00<\/td>/,
    );
  });
});
