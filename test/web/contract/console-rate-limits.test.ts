import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import { audited } from '../../helpers/audit.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, newEmail, verifiedOwner } from '../../helpers/web.ts';

describe('a partner’s own rate limits in the console', () => {
  let p: TestPlatform;
  let now = Date.now();
  let partnerId: string;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const { email } = await verifiedOwner(p, newEmail('owner'), 'Kwame Couriers');
    partnerId = await partnerOfMember(p, email);
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));
  const limits = async () =>
    (
      await p.app.platform.db.query<{
        reads_per_minute: number | null;
        writes_per_minute: number | null;
      }>('select reads_per_minute, writes_per_minute from partners where id = $1', [partnerId])
    )[0]!;

  it('support sets them through AccountsService, audited as the operator, and clears them back to the defaults', async () => {
    const { web, op } = await signedIn(['support']);
    const page = await web.get(`/console/partners/${partnerId}`);
    expect(page.text).toContain('platform defaults');
    const set = await web.post(`/console/partners/${partnerId}/rate-limits`, {
      _csrf: csrfOf(page.text),
      reads_per_minute: '600',
      writes_per_minute: '120',
    });
    expect(set.status).toBe(200);
    expect(set.text).toContain('600 reads, 120 writes per minute');
    expect(await limits()).toEqual({ reads_per_minute: 600, writes_per_minute: 120 });
    const audit = (await audited(p, { action: 'partner.update', target_id: partnerId })).map(
      (e) => ({ actor_id: e.actor.id, after: e.after }),
    );
    expect(audit).toEqual([
      {
        actor_id: op.id,
        after: expect.objectContaining({
          rate_limits: { reads_per_minute: 600, writes_per_minute: 120 },
        }),
      },
    ]);
    const cleared = await web.post(`/console/partners/${partnerId}/rate-limits`, {
      _csrf: csrfOf(page.text),
      reads_per_minute: '',
      writes_per_minute: '',
    });
    expect(cleared.status).toBe(200);
    expect(await limits()).toEqual({ reads_per_minute: null, writes_per_minute: null });
  });

  it('refuses hostile or partial values with 400 and changes nothing', async () => {
    const { web } = await signedIn(['admin']);
    const csrf = csrfOf((await web.get(`/console/partners/${partnerId}`)).text);
    for (const [reads, writes] of [
      ['0', '10'],
      ['10', ''],
      ['1e3', '10'],
      ['-5', '10'],
      ['10', '1000001'],
      ['9999999999', '1'],
      ['<b>', '1'],
    ]) {
      const res = await web.post(`/console/partners/${partnerId}/rate-limits`, {
        _csrf: csrf,
        reads_per_minute: reads!,
        writes_per_minute: writes!,
      });
      expect(res.status, `${reads}/${writes}`).toBe(400);
    }
    expect(
      (
        await web.post('/console/partners/ptn_00000000000000000000000000/rate-limits', {
          _csrf: csrf,
          reads_per_minute: '5',
          writes_per_minute: '5',
        })
      ).status,
    ).toBe(404);
    expect(await limits()).toEqual({ reads_per_minute: null, writes_per_minute: null });
  });

  it('finance gets 403 and no form; a missing CSRF token is refused', async () => {
    const finance = await signedIn(['finance']);
    const page = await finance.web.get(`/console/partners/${partnerId}`);
    expect(page.text).not.toContain('Set the rate limits');
    expect(
      (
        await finance.web.post(`/console/partners/${partnerId}/rate-limits`, {
          _csrf: csrfOf(page.text),
          reads_per_minute: '5',
          writes_per_minute: '5',
        })
      ).status,
    ).toBe(403);
    const support = await signedIn(['support']);
    expect(
      (
        await support.web.post(`/console/partners/${partnerId}/rate-limits`, {
          reads_per_minute: '5',
          writes_per_minute: '5',
        })
      ).status,
    ).toBe(403);
    expect(await limits()).toEqual({ reads_per_minute: null, writes_per_minute: null });
  });
});
