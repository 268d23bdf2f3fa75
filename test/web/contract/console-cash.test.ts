import { describe, expect, it } from 'vitest';
import {
  courierNear,
  earlierCouriers,
  productionOrder,
  toDropoff,
} from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { countRows } from '../../helpers/harness.ts';
import { orderFee } from '../../helpers/orders-read.ts';
import { csrfOf } from '../../helpers/web.ts';

describe('the console courier cash page', () => {
  const env = useConsoleWithPartner();
  const { signedIn } = env;

  /** A courier who delivered one recipient-paid order and holds its fee. */
  async function courierHolding(): Promise<{ id: string; fee: number }> {
    const c = await courierNear(env.p, 1, env.clock.now);
    const orderId = await productionOrder(env.s);
    await toDropoff(env.p, orderId, c.id);
    await env.p.app.platform.dispatch!.service.delivered(c.id, orderId);
    return { id: c.id, fee: await orderFee(env.s, orderId) };
  }
  const ghs = (pesewas: number) =>
    `GHS ${Math.floor(pesewas / 100)}.${String(pesewas % 100).padStart(2, '0')}`;

  it('shows what each courier holds; finance records a handover (audited) and one above the balance is refused', async () => {
    const c = await courierHolding();
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/cash');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Courier cash');
    expect(page.text).toContain(`action="/console/cash/${c.id}/handover"`);
    expect(page.text).toContain(ghs(c.fee));

    const over = await web.post(`/console/cash/${c.id}/handover`, {
      _csrf: csrfOf(page.text),
      amount_ghs: String(c.fee / 100 + 1),
    });
    expect(over.status).toBe(409);
    expect(over.text).toContain('Not recorded');
    const done = await web.post(`/console/cash/${c.id}/handover`, {
      _csrf: csrfOf(page.text),
      amount_ghs: '1.00',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain(
      `Recorded GHS 1.00 handed in; ${ghs(c.fee - 100)} still to hand in.`,
    );
    expect(
      (await audited(env.p, { action: 'courier_cash.handover', target_id: c.id })).length,
    ).toBe(1);

    for (const bad of ['0', '-1', '1.234', 'abc', '1e5', 'a\u0000b', '9'.repeat(13)]) {
      expect(
        (
          await web.post(`/console/cash/${c.id}/handover`, {
            _csrf: csrfOf(page.text),
            amount_ghs: bad,
          })
        ).status,
        bad,
      ).toBe(400);
    }
    expect(
      (
        await web.post('/console/cash/cou_nope/handover', {
          _csrf: csrfOf(page.text),
          amount_ghs: '1',
        })
      ).status,
    ).toBe(404);
    expect((await web.post(`/console/cash/${c.id}/handover`, { amount_ghs: '1' })).status).toBe(
      403,
    );
    expect(
      await countRows(
        env.p,
        'select count(*)::int as n from courier_cash_handovers where courier_id = $1',
        [c.id],
      ),
    ).toBe(1);
  });

  it('names a courier past the first 200 in the balances and in the handovers', async () => {
    await earlierCouriers(env.p, 250);
    const c = await courierHolding();
    await env.p.app.platform.couriers.update(c.id, { name: 'Kojo Beyond' });
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/cash');
    expect(page.text).toContain(`<a href="/console/couriers/${c.id}">Kojo Beyond</a>`);
    const done = await web.post(`/console/cash/${c.id}/handover`, {
      _csrf: csrfOf(page.text),
      amount_ghs: '1.00',
    });
    expect(done.status).toBe(200);
    expect(done.text.match(/Kojo Beyond/g)).toHaveLength(2);
  });

  it('is not for support', async () => {
    const c = await courierHolding();
    const { web } = await signedIn(['support']);
    expect((await web.get('/console/cash')).status).toBe(403);
    const page = await web.get('/console/dispatch');
    expect(page.text).not.toContain('/console/cash');
    expect(
      (
        await web.post(`/console/cash/${c.id}/handover`, {
          _csrf: csrfOf(page.text),
          amount_ghs: '1',
        })
      ).status,
    ).toBe(403);
  });
});
