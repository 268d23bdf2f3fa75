import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import { audited } from '../../helpers/audit.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { mailTo } from '../../helpers/outbox-read.ts';
import { payeeDestination } from '../../helpers/payouts-read.ts';
import {
  invitedMember,
  mailSettled,
  newEmail,
  PASSWORD,
  verifiedOwner,
  type WebClient,
} from '../../helpers/web.ts';
import { HOUR, payouts, returnSale, settleSale } from '../../payouts/helpers.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
const now = Date.parse('2026-03-02T09:00:00Z');
beforeAll(async () => {
  p = await startPlatform({
    socket: false,
    clock: () => now,
    transfers: fake,
    env: { PAYOUT_INTERVAL_MS: '0' },
  });
});
afterAll(() => p.close());

async function partner(
  name: string,
): Promise<{ owner: WebClient; email: string; partnerId: string }> {
  const { web, email } = await verifiedOwner(p, newEmail('owner'), name);
  return { owner: web, email, partnerId: await partnerOfMember(p, email) };
}

const destinationOf = async (partnerId: string) => {
  const saved = await payeeDestination(p, `partner:${partnerId}`);
  return saved ? { number: saved.number, name: saved.name } : undefined;
};
const noticesTo = async (email: string) =>
  (
    await p.app.platform.db.query<{ subject: string; body: string }>(
      "select subject, body from mail_queue where to_address = $1 and subject like '%payout destination%'",
      [email],
    )
  ).length;
const MOMO = { kind: 'mobile_money', network: 'mtn', number: '024 555 0101', name: 'Adwoa Mensah' };

describe('dashboard payouts: money, payouts and their remittance advice', () => {
  it('shows markup earned, pending and available, the payouts, and a payout’s lines; another partner’s payout is not found', async () => {
    const a = await partner('Adwoa Bakery');
    const account = `partner_markup_payable:${a.partnerId}`;
    const sale = await settleSale(p, account, 5000, now - 30 * HOUR);
    await returnSale(p, account, 1200, now - 29 * HOUR);
    await settleSale(p, account, 700, now - 2 * HOUR);
    await payouts(p).payees.setDestination('partner', a.partnerId, { ...MOMO }, 'test');
    await p.app.platform.db.query(
      "update payout_destinations set changed_at = changed_at - interval '2 days' where payee = $1",
      [`partner:${a.partnerId}`],
    );
    await payouts(p).service.run('manual', 'test');
    const [payout] = await payouts(p).service.list({ payee: `partner:${a.partnerId}` });
    expect(payout).toMatchObject({ amount_pesewas: 3800, status: 'paid' });

    const page = await a.owner.get('/dashboard/payouts');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<strong id="earned">GHS 45.00</strong>');
    expect(page.text).toMatch(/id="pending">GHS 7\.00/);
    expect(page.text).toMatch(/id="available">GHS 0\.00/);
    expect(page.text).toContain(`href="/dashboard/payouts/${payout!.id}"`);
    expect(page.text).toContain('•••101');
    expect(page.text).not.toContain('0245550101');
    expect(page.text).toContain('href="/dashboard/payouts" aria-current="page"');

    const advice = await a.owner.get(`/dashboard/payouts/${payout!.id}`);
    expect(advice.status).toBe(200);
    expect(advice.text).toMatch(/id="sales">GHS 50\.00/);
    expect(advice.text).toMatch(/id="deductions">GHS -12\.00/);
    expect(advice.text).toMatch(/id="amount">GHS 38\.00/);
    expect(advice.text).toContain(sale);

    const b = await partner('Kofi Crafts');
    expect((await b.owner.get(`/dashboard/payouts/${payout!.id}`)).status).toBe(404);
    expect((await b.owner.get('/dashboard/payouts/pout_nonsense')).status).toBe(404);
    expect((await b.owner.get('/dashboard/payouts')).text).toContain('No payouts yet.');
  });
});

describe('dashboard payouts: changing the destination', () => {
  it('lets finance see and change it with a fresh password, mails the owners in the same change, and shows a name mismatch and the cooling period', async () => {
    const a = await partner('Ama Textiles');
    const finance = await invitedMember(p, a.owner, 'finance');
    const financeEmail = (await p.app.platform.members.team(a.partnerId)).find(
      (m) => m.role === 'finance',
    )!.email;
    expect(financeEmail).toMatch(/^finance\./);
    expect((await finance.get('/dashboard')).text).toContain('href="/dashboard/payouts"');
    fake.registeredNames.set('0245550199', 'YAW OWUSU');
    const saved = await finance.submit('/dashboard/payouts', '/dashboard/payouts/destination', {
      ...MOMO,
      number: '024 555 0199',
      password: PASSWORD,
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('YAW OWUSU');
    expect(saved.text).toContain('Our finance team is reviewing it');
    expect(saved.text).toMatch(/wait for our approval during the first 24 hours/);
    const [audit] = (await audited(p, { target_id: a.partnerId }))
      .filter((e) => e.action.startsWith('payout_destination.'))
      .map((e) => ({ actor_kind: e.actor.kind, action: e.action }));
    expect(audit).toEqual({ actor_kind: 'member', action: 'payout_destination.set' });
    expect(await destinationOf(a.partnerId)).toEqual({
      number: '0245550199',
      name: 'Adwoa Mensah',
    });
    await mailSettled(p);
    expect(await noticesTo(a.email)).toBe(1);
    expect(await noticesTo(financeEmail)).toBe(0);
    const [notice] = await mailTo(p, a.email);
    expect(notice!.body).toContain(
      `${financeEmail} changed where your markup is paid to: MTN mobile money •••199`,
    );
    expect(notice!.body).not.toContain('0245550199');

    const bank = await a.owner.submit('/dashboard/payouts', '/dashboard/payouts/destination', {
      kind: 'bank',
      bank_code: '280100',
      account_number: '1234567890',
      name: 'Ama Textiles Ltd',
      password: PASSWORD,
    });
    expect(bank.status).toBe(200);
    expect(bank.text).toContain('Bank 280100');
    expect(bank.text).toContain('•••890');
    expect(bank.text).toContain('Checked with the provider.');
    expect(await noticesTo(a.email)).toBe(2);
  });

  it('makes the payouts not yet sent again for the new destination, and says so', async () => {
    const a = await partner('Efua Beads');
    const account = `partner_markup_payable:${a.partnerId}`;
    await payouts(p).payees.setDestination(
      'partner',
      a.partnerId,
      { ...MOMO, number: '024 555 0301' },
      'test',
    );
    await settleSale(p, account, 2500, now - 30 * HOUR);
    await payouts(p).service.run('manual', 'test');
    const [held] = await payouts(p).service.list({ payee: `partner:${a.partnerId}` });
    expect(held).toMatchObject({
      status: 'awaiting_approval',
      approval_reasons: ['destination_changed'],
    });
    const saved = await a.owner.submit('/dashboard/payouts', '/dashboard/payouts/destination', {
      ...MOMO,
      number: '024 555 0302',
      password: PASSWORD,
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('1 payout(s) not yet sent were made again for it.');
    expect(saved.text).toContain('cancelled: made again for your new destination');
    const [made, old] = await payouts(p).service.list({ payee: `partner:${a.partnerId}` });
    expect(old).toMatchObject({ id: held!.id, status: 'cancelled', replaced_by: made!.id });
    expect(made).toMatchObject({
      status: 'awaiting_approval',
      destination: { number: '0245550302' },
      destination_version: 2,
    });
  });

  it('refuses developers (no link, no page, no change)', async () => {
    const a = await partner('Esi Shoes');
    const dev = await invitedMember(p, a.owner, 'developer');
    expect((await dev.get('/dashboard')).text).not.toContain('href="/dashboard/payouts"');
    expect((await dev.get('/dashboard/payouts')).status).toBe(403);
    const token = /name="_csrf" value="([^"]+)"/.exec((await dev.get('/dashboard')).text)![1]!;
    expect(
      (
        await dev.post('/dashboard/payouts/destination', {
          _csrf: token,
          ...MOMO,
          password: PASSWORD,
        })
      ).status,
    ).toBe(403);
    expect(await destinationOf(a.partnerId)).toBeUndefined();
  });

  it('refuses a missing CSRF token and bad input with a 4xx page, changing nothing and mailing nobody', async () => {
    const a = await partner('Kwame Foods');
    expect(
      (await a.owner.post('/dashboard/payouts/destination', { ...MOMO, password: PASSWORD }))
        .status,
    ).toBe(403);
    const bad = await a.owner.submit('/dashboard/payouts', '/dashboard/payouts/destination', {
      ...MOMO,
      number: '030 221 1234',
      network: 'vodafone',
      password: PASSWORD,
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('network: must be one of mtn, telecel, airteltigo');
    expect(bad.text).toContain('value="030 221 1234"');
    expect(await destinationOf(a.partnerId)).toBeUndefined();
    await mailSettled(p);
    expect(await noticesTo(a.email)).toBe(0);
  });

  it('refuses a wrong password, then throttles like the sign-in, changing nothing', async () => {
    const a = await partner('Abena Prints');
    for (let i = 0; i < 5; i++) {
      const wrong = await a.owner.submit('/dashboard/payouts', '/dashboard/payouts/destination', {
        ...MOMO,
        password: 'not my password',
      });
      expect(wrong.status).toBe(403);
      expect(wrong.text).toContain('Your password was not right');
    }
    const locked = await a.owner.submit('/dashboard/payouts', '/dashboard/payouts/destination', {
      ...MOMO,
      password: PASSWORD,
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await destinationOf(a.partnerId)).toBeUndefined();
    expect(await noticesTo(a.email)).toBe(0);
  });

  it("mails the partner's owners when operators change its destination, once a second operator approves", async () => {
    const a = await partner('Kwame Crafts');
    const { change } = await payouts(p).changes.propose(
      'partner',
      a.partnerId,
      { ...MOMO },
      'opr_maker',
    );
    expect(await noticesTo(a.email)).toBe(0);
    await payouts(p).changes.approve('partner', a.partnerId, change.id, 'opr_checker');
    expect(await destinationOf(a.partnerId)).toMatchObject({ number: '0245550101' });
    await mailSettled(p);
    expect(await noticesTo(a.email)).toBe(1);
    const [mail] = await mailTo(p, a.email);
    expect(mail!.body).toContain('to MTN mobile money •••101 (Adwoa Mensah)');
    expect(mail!.body).not.toContain('0245550101');
  });
});
