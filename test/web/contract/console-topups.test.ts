import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/platform/ids.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { dashboardKey, newEmail, verifiedOwner } from '../../helpers/web.ts';

const references = (html: string) =>
  [...html.matchAll(/<tr class="topup">.*?<td><code>([^<]+)<\/code><\/td>/g)].map((m) => m[1]!);

describe('every partner’s top-ups in the console (finance, admin; read-only)', () => {
  let p: TestPlatform;
  let now = Date.now();
  const partners: string[] = [];
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const db = p.app.platform.db;
    for (const [name, rows] of [
      [
        'Ama Topup Shop',
        [
          ['A-1', 'credited', 'Paid <ok>', 100000],
          ['A-2', 'failed', 'Declined', null],
        ],
      ],
      ['Kofi Topup Shop', [['K-1', 'pending', null, null]]],
    ] as const) {
      const { web } = await verifiedOwner(p, newEmail('owner'), name);
      const { appId } = await dashboardKey(web);
      const { partner_id: partnerId } = (await p.app.platform.accounts.getApp(appId))!;
      partners.push(partnerId);
      for (const [ref, status, gateway, credited] of rows) {
        await db.query(
          `insert into wallet_topups (id, partner_id, app_id, client_reference, amount_pesewas, gateway, status, last_gateway_status, credited_pesewas)
           values ($1, $2, $3, $4, 100000, 'sandbox', $5, $6, $7)`,
          [newId('top'), partnerId, appId, `${ref}-${partnerId}`, status, gateway, credited],
        );
      }
    }
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('lists top-ups across partners with amount, state and the gateway’s last status (escaped), filtered by state and partner', async () => {
    const { web } = await signedIn(['finance']);
    const all = await web.get('/console/topups');
    expect(all.status).toBe(200);
    const [ama, kofi] = partners as [string, string];
    expect(references(all.text)).toEqual(
      expect.arrayContaining([`A-1-${ama}`, `A-2-${ama}`, `K-1-${kofi}`]),
    );
    expect(all.text).toContain('sandbox: Paid &lt;ok&gt;');
    expect(all.text).toContain('GHS 1000.00');
    expect(all.text).toContain('Kofi Topup Shop');
    expect(references((await web.get('/console/topups?state=failed')).text)).toEqual([
      `A-2-${ama}`,
    ]);
    expect(references((await web.get(`/console/topups?partner=${kofi}`)).text)).toEqual([
      `K-1-${kofi}`,
    ]);
    expect(
      references((await web.get(`/console/topups?partner=${ama}&state=pending`)).text),
    ).toEqual([]);
    expect(all.text.match(/<form method="post"/g)).toHaveLength(1);
  });

  it('gives support a 403 and answers hostile filters with 400', async () => {
    const support = await signedIn(['support']);
    expect((await support.web.get('/console/topups')).status).toBe(403);
    const { web } = await signedIn(['admin']);
    for (const q of [
      'state=paid',
      'state=%27%20or%201%3D1',
      'state=failed&state=pending',
      'partner=ptn_x',
      'before=1%27',
      `partner=${'A'.repeat(5000)}`,
    ]) {
      expect((await web.get(`/console/topups?${q}`)).status, q).toBe(400);
    }
  });
});
