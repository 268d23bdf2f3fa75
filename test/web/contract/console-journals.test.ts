import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger } from '../../../src/modules/ledger/index.ts';
import { orderFeeJournal, topupJournal } from '../../../src/modules/wallet/journals.ts';
import { newId } from '../../../src/platform/ids.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { newEmail, verifiedOwner } from '../../helpers/web.ts';

const listed = (html: string) =>
  [...html.matchAll(/<a href="\/console\/journals\/(jrn_[0-9A-Z]{26})">/g)].map((m) => m[1]!);
const legs = (html: string) =>
  [
    ...html.matchAll(
      /<tr class="leg"><td><code>([^<]+)<\/code><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g,
    ),
  ].map((m) => ({ account: m[1], debit: m[2], credit: m[3] }));

describe('ledger journals in the console (finance, admin; read-only)', () => {
  let p: TestPlatform;
  let now = Date.parse('2026-03-10T09:00:00Z');
  let partnerId: string;
  let otherId: string;
  const topupId = newId('top');
  // The journal about a subject: this test posts top-ups and order fees only.
  const journalOf = async (subject: string) =>
    (await p.app.platform.journals.about(['wallet_topup', 'order_fee'], subject))[0]!.id;

  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const partnerOf = async (name: string) => {
      const { email } = await verifiedOwner(p, newEmail('owner'), name);
      return partnerOfMember(p, email);
    };
    partnerId = await partnerOf('Ama Ledger Shop');
    otherId = await partnerOf('Kofi Other Shop');
    const db = p.app.platform.db;
    await db.transaction((tx) =>
      ledger.postJournal(
        tx,
        topupJournal(partnerId, topupId, 'sandbox', 123456),
        new Date('2026-03-01T10:00:00Z'),
      ),
    );
    for (let i = 0; i < 52; i++) {
      await db.transaction((tx) =>
        ledger.postJournal(
          tx,
          orderFeeJournal(partnerId, `dlv_fee_${i}`, 250),
          new Date(Date.parse('2026-03-02T10:00:00Z') + i * 1000),
        ),
      );
    }
    await db.transaction((tx) =>
      ledger.postJournal(
        tx,
        topupJournal(otherId, newId('top'), 'sandbox', 5000),
        new Date('2026-03-05T10:00:00Z'),
      ),
    );
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('shows a journal’s exact legs as debits and credits in GHS, and that they balance', async () => {
    const { web } = await signedIn(['finance']);
    const id = await journalOf(topupId);
    const page = await web.get(`/console/journals/${id}`);
    expect(page.status).toBe(200);
    expect(legs(page.text)).toEqual([
      { account: 'gateway_clearing:sandbox', debit: 'GHS 1234.56', credit: '' },
      { account: `wallet:${partnerId}`, debit: '', credit: 'GHS 1234.56' },
    ]);
    expect(page.text).toContain('id="total-debits">GHS 1234.56<');
    expect(page.text).toContain('id="total-credits">GHS 1234.56<');
    expect(page.text).toContain('Balanced: debits equal credits.');
    // Nothing to edit: the only form posts the sign-out.
    expect(page.text.match(/<form method="post"/g)).toHaveLength(1);
    const fee = await web.get(`/console/journals/${await journalOf('dlv_fee_7')}`);
    expect(legs(fee.text)).toEqual([
      { account: `wallet:${partnerId}`, debit: 'GHS 2.50', credit: '' },
      { account: 'delivery_revenue', debit: '', credit: 'GHS 2.50' },
    ]);
  });

  it('lists journals newest first in keyset pages, filtered by kind, partner and day', async () => {
    const { web } = await signedIn(['admin']);
    const first = await web.get('/console/journals');
    expect(first.status).toBe(200);
    const ids = listed(first.text);
    expect(ids).toHaveLength(50);
    expect(ids[0]).toBe(
      await journalOf(
        (
          await p.app.platform.db.query<{ subject_id: string }>(
            'select subject_id from ledger_journals order by created_at desc limit 1',
          )
        )[0]!.subject_id,
      ),
    );
    const next = /href="([^"]*before=jrn_[^"]+)">Older journals/.exec(first.text)![1]!;
    const older = listed((await web.get(next.replaceAll('&amp;', '&'))).text);
    const total = Number(
      (
        await p.app.platform.db.query<{ n: number }>(
          'select count(*)::int as n from ledger_journals',
        )
      )[0]!.n,
    );
    expect(new Set([...ids, ...older]).size).toBe(Math.min(total, 100));

    const topups = listed((await web.get('/console/journals?kind=wallet_topup')).text);
    expect(topups).toContain(await journalOf(topupId));
    expect(topups).not.toContain(await journalOf('dlv_fee_0'));
    const other = listed((await web.get(`/console/journals?partner=${otherId}`)).text);
    expect(other).toHaveLength(1);
    const mine = await web.get(`/console/journals?partner=${partnerId}&until=2026-03-01`);
    expect(listed(mine.text)).toEqual([await journalOf(topupId)]);
    // The filters carry to the next page.
    const fees = await web.get(`/console/journals?partner=${partnerId}&kind=order_fee`);
    const feeNext = /href="([^"]*)">Older journals/.exec(fees.text)![1]!.replaceAll('&amp;', '&');
    expect(feeNext).toContain('kind=order_fee');
    expect(listed((await web.get(feeNext)).text)).toHaveLength(2);
  });

  it('gives support a 403 and answers hostile ids and filters with 4xx', async () => {
    const support = await signedIn(['support']);
    expect((await support.web.get('/console/journals')).status).toBe(403);
    expect((await support.web.get(`/console/journals/${await journalOf(topupId)}`)).status).toBe(
      403,
    );
    expect((await support.web.get('/console/partners')).text).not.toContain(
      'href="/console/journals"',
    );
    const { web } = await signedIn(['finance']);
    expect((await web.get('/console/journals/jrn_00000000000000000000000000')).status).toBe(404);
    expect((await web.get('/console/journals/%27%3B--')).status).toBe(404);
    for (const q of [
      'kind=%27%20or%201%3D1',
      'partner=ptn_x',
      'until=2026-02-30',
      'until=yesterday',
      'before=1%27or%271',
      'kind=a&kind=b',
      `partner=${'A'.repeat(5000)}`,
    ]) {
      const res = await web.get(`/console/journals?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});
