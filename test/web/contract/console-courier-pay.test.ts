import { describe, expect, it } from 'vitest';
import { courierNear, earlierCouriers } from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { countRows } from '../../helpers/harness.ts';
import { csrfOf } from '../../helpers/web.ts';

describe('the console courier pay page', () => {
  const env = useConsoleWithPartner();
  const { signedIn } = env;
  const rule = (over: Record<string, string> = {}) => ({
    zone: 'ashanti',
    vehicle: 'car',
    base_ghs: '5.00',
    per_km_ghs: '1.20',
    per_failed_attempt_ghs: '2',
    effective_from: '',
    ...over,
  });

  it('finance adds rule and policy versions (audited); bad values are refused and kept in the form', async () => {
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/courier-pay');
    expect(page.status).toBe(200);
    expect(page.text).toContain('No pay rule yet');
    const _csrf = csrfOf(page.text);

    const first = await web.post('/console/courier-pay/rules', { _csrf, ...rule() });
    expect(first.status, first.text.slice(0, 500)).toBe(200);
    expect(first.text).toContain('Saved as a new version.');
    expect(first.text).toContain('GHS 5.00');
    const second = await web.post('/console/courier-pay/rules', {
      _csrf,
      ...rule({ base_ghs: '6' }),
    });
    expect(second.text).toContain('GHS 6.00');
    const versions = (await env.p.admin('GET', '/courier-pay/rules')).body.data.filter(
      (r: { zone: string }) => r.zone === 'ashanti',
    );
    expect(versions.map((r: { version: number }) => r.version)).toEqual([2, 1]);
    expect((await audited(env.p, { action: 'pay_rule.create' })).length).toBe(2);

    for (const bad of [
      rule({ base_ghs: '-1' }),
      rule({ per_km_ghs: '1.234' }),
      rule({ per_failed_attempt_ghs: '99999999' }),
      rule({ zone: '<script>alert(1)</script>' }),
      rule({ vehicle: 'rocket' }),
      rule({ effective_from: '2001-01-01T00:00' }),
      rule({ effective_from: 'soon' }),
    ]) {
      const res = await web.post('/console/courier-pay/rules', { _csrf, ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.text).not.toContain('<script>alert(1)');
    }
    expect(await countRows(env.p, 'select count(*)::int as n from courier_pay_rules')).toBe(2);

    const policy = await web.post('/console/courier-pay/policy', {
      _csrf,
      net_cod_cash: 'on',
      effective_from: '',
    });
    expect(policy.status).toBe(200);
    expect((await env.p.admin('GET', '/courier-pay/policy')).body.data[0].net_cod_cash).toBe(true);
    expect((await audited(env.p, { action: 'pay_policy.create' })).length).toBe(1);
    expect((await web.post('/console/courier-pay/rules', rule())).status).toBe(403);
  });

  it("shows a courier's payee page, whose destination form offers mobile money only", async () => {
    const courier = await env.p.app.platform.couriers.create({
      name: 'Yaw Darko',
      phone: '0245550303',
      vehicle: 'car',
    });
    const { web } = await signedIn(['finance']);
    const page = await web.get(`/console/payees/courier/${courier.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Courier payee');
    expect(page.text).toContain('value="mobile_money"');
    expect(page.text).not.toContain('value="bank"');
    expect((await web.get('/console/payees/courier/ven_01M8K2P0S4WKP5Z2K415DHWD0T')).status).toBe(
      404,
    );
  });

  it('names a courier past the first 200 in the latest earnings', async () => {
    await earlierCouriers(env.p, 250);
    const c = await courierNear(env.p, 1, env.clock.now);
    await env.p.app.platform.couriers.update(c.id, { name: 'Efua Beyond' });
    await env.p.app.platform.db.transaction((tx) =>
      env.p.app.platform.earnings.book(tx, {
        orderId: `dlv_beyond_${c.id}`,
        courierId: c.id,
        occasion: 'delivered',
        zone: null,
        vehicle: 'motorbike',
        roadKm: 2,
      }),
    );
    const { web } = await signedIn(['support']);
    const page = await web.get('/console/courier-pay');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Efua Beyond');
  });

  it('support reads the rules but may not change them', async () => {
    const { web } = await signedIn(['support']);
    const page = await web.get('/console/courier-pay');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('action="/console/courier-pay/rules"');
    const res = await web.post('/console/courier-pay/rules', {
      _csrf: csrfOf(page.text),
      ...rule(),
    });
    expect(res.status).toBe(403);
  });
});
