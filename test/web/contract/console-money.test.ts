import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger } from '../../../src/modules/ledger/index.ts';
import { orderFeeJournal, topupJournal } from '../../../src/modules/wallet/journals.ts';
import { newId } from '../../../src/platform/ids.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { dashboardKey, newEmail, verifiedOwner } from '../../helpers/web.ts';

const journals = (html: string) =>
  [
    ...html.matchAll(
      /<td><a href="\/console\/journals\/(jrn_[0-9A-Z]{26})"><code>\1<\/code><\/a><\/td><\/tr>/g,
    ),
  ].map((m) => m[1]!);

describe('a partner’s wallet in the console (finance, admin; read-only)', () => {
  let p: TestPlatform;
  let now = Date.now();
  let partnerId: string;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const { web } = await verifiedOwner(p, newEmail('owner'), 'Ama Wallet Shop');
    const { appId } = await dashboardKey(web);
    partnerId = (await p.app.platform.accounts.getApp(appId))!.partner_id;
    const db = p.app.platform.db;
    const topupId = newId('top');
    await db.query(
      `insert into wallet_topups (id, partner_id, app_id, client_reference, amount_pesewas, gateway, status, last_gateway_status, credited_pesewas)
       values ($1, $2, $3, 'REF<script>1', 100000, 'sandbox', 'credited', 'Paid <ok>', 100000)`,
      [topupId, partnerId, appId],
    );
    await db.transaction((tx) =>
      ledger.postJournal(tx, topupJournal(partnerId, topupId, 'sandbox', 100000), new Date(now)),
    );
    for (let i = 0; i < 55; i++) {
      await db.transaction((tx) =>
        ledger.postJournal(
          tx,
          orderFeeJournal(partnerId, newId('dlv'), 100),
          new Date(now + i + 1),
        ),
      );
    }
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('shows the balance, the entries with the running balance in pages, and top-ups with the gateway status (escaped)', async () => {
    const { web } = await signedIn(['finance']);
    const page = await web.get(`/console/partners/${partnerId}/wallet`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="wallet-balance">GHS 945.00<');
    expect(page.text).toContain('Paid &lt;ok&gt;');
    expect(page.text).toContain('REF&lt;script&gt;1');
    expect(page.text).not.toContain('<script>1');
    const first = journals(page.text);
    expect(first).toHaveLength(50);
    const next = /href="([^"]*\?before=jrn_[^"]+)">Older entries/.exec(page.text)![1]!;
    const older = journals((await web.get(next)).text);
    expect(older).toHaveLength(6);
    expect(new Set([...first, ...older]).size).toBe(56);
    // Each entry links to its journal's page.
    expect((await web.get(`/console/journals/${first[0]}`)).text).toContain(`wallet:${partnerId}`);
    // Nothing to edit: the page posts no form but sign-out.
    expect(page.text.match(/<form method="post"/g)).toHaveLength(1);
    expect((await web.get(`/console/partners/${partnerId}`)).text).toContain('Wallet and ledger');
  });

  it('gives support a 403 (money is finance and admin), and hostile ids or cursors 4xx', async () => {
    const support = await signedIn(['support']);
    expect((await support.web.get(`/console/partners/${partnerId}/wallet`)).status).toBe(403);
    expect((await support.web.get(`/console/partners/${partnerId}`)).text).not.toContain(
      'Wallet and ledger',
    );
    const { web } = await signedIn(['admin']);
    expect((await web.get('/console/partners/ptn_00000000000000000000000000/wallet')).status).toBe(
      404,
    );
    expect((await web.get('/console/partners/%27%3B--/wallet')).status).toBe(404);
    expect((await web.get(`/console/partners/${partnerId}/wallet?before=1%27or%271`)).status).toBe(
      400,
    );
    expect((await web.get(`/console/partners/${partnerId}/wallet?before=a&before=b`)).status).toBe(
      400,
    );
  });
});
