import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, dashboardKey, newEmail, verifiedOwner } from '../../helpers/web.ts';

describe('partners in the console: search, a partner page, suspend and reactivate, credit limit', () => {
  let p: TestPlatform;
  let now = Date.now();
  let partnerId: string;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const { web: owner } = await verifiedOwner(p, newEmail('owner'), 'Efua 100% Juice_Bar');
    const { appId } = await dashboardKey(owner, 'Juice app');
    partnerId = (await p.app.platform.accounts.getApp(appId))!.partner_id;
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('finds partners by a part of the name (LIKE characters taken literally) or by id, and shows keys without secrets', async () => {
    const { web } = await signedIn(['support']);
    expect(
      (await web.get(`/console/partners?q=${encodeURIComponent('100% juice_')}`)).text,
    ).toContain(partnerId);
    expect(
      (await web.get(`/console/partners?q=${encodeURIComponent('100_ juice')}`)).text,
    ).not.toContain(partnerId);
    expect((await web.get(`/console/partners?q=${partnerId}`)).text).toContain(
      'Efua 100% Juice_Bar',
    );
    expect((await web.get('/console/partners?q=%00%07')).status).toBe(200);
    const page = await web.get(`/console/partners/${partnerId}`);
    expect(page.text).toContain('Juice app');
    expect(page.text).toMatch(/staging/);
    expect(page.text).not.toMatch(/pk_staging_[A-Za-z0-9_-]{20}|sk_staging_|whsec_/);
    expect((await web.get('/console/partners/ptn_00000000000000000000000000')).status).toBe(404);
  });

  it('gives a support operator 403 on the credit limit (finance, admin only); finance sets it, audited as the operator', async () => {
    const support = await signedIn(['support']);
    const page = await support.web.get(`/console/partners/${partnerId}`);
    expect(page.text).not.toContain('Set the credit limit');
    const refused = await support.web.post(`/console/partners/${partnerId}/credit-limit`, {
      _csrf: csrfOf(page.text),
      credit_limit_ghs: '5000',
    });
    expect(refused.status).toBe(403);
    const finance = await signedIn(['finance']);
    const fpage = await finance.web.get(`/console/partners/${partnerId}`);
    expect(
      (
        await finance.web.post(`/console/partners/${partnerId}/credit-limit`, {
          _csrf: csrfOf(fpage.text),
          credit_limit_ghs: '-1',
        })
      ).status,
    ).toBe(400);
    const set = await finance.web.post(`/console/partners/${partnerId}/credit-limit`, {
      _csrf: csrfOf(fpage.text),
      credit_limit_ghs: '1250.50',
    });
    expect(set.status).toBe(200);
    expect(set.text).toMatch(/id="credit-limit">GH₵ 1250.50[ <]/);
    const entries = await audited(p, { action: 'partner.update', target_id: partnerId });
    expect(entries).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ id: finance.op.id }),
        before: expect.objectContaining({ credit_limit_ghs: 0 }),
        after: expect.objectContaining({ credit_limit_ghs: 1250.5 }),
      }),
    ]);
    // Finance may not suspend.
    expect(
      (
        await finance.web.post(`/console/partners/${partnerId}/status`, {
          _csrf: csrfOf(fpage.text),
          status: 'suspended',
        })
      ).status,
    ).toBe(403);
  });

  it('suspends and reactivates (support), each change audited', async () => {
    const { web, op } = await signedIn(['support']);
    const page = await web.get(`/console/partners/${partnerId}`);
    const suspended = await web.post(`/console/partners/${partnerId}/status`, {
      _csrf: csrfOf(page.text),
      status: 'suspended',
    });
    expect(suspended.text).toMatch(/id="partner-status">suspended</);
    const back = await web.post(`/console/partners/${partnerId}/status`, {
      _csrf: csrfOf(page.text),
      status: 'active',
    });
    expect(back.text).toMatch(/id="partner-status">active</);
    expect(
      (
        await web.post(`/console/partners/${partnerId}/status`, {
          _csrf: csrfOf(page.text),
          status: 'deleted',
        })
      ).status,
    ).toBe(400);
    const rows = await audited(p, { action: 'partner.update', actor_id: op.id });
    expect(rows.map((r) => r.after.status)).toEqual(['suspended', 'active']);
  });
});
