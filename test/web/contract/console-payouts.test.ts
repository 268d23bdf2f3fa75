import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { createVendor } from '../../catalog/helpers.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { audited as readAudit } from '../../helpers/audit.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import {
  listedPayouts,
  listedRuns,
  operatorPayout,
  payeeDestination,
} from '../../helpers/payouts-read.ts';
import { csrfOf, type WebClient } from '../../helpers/web.ts';
import { HOUR, payouts, settleSale } from '../../payouts/helpers.ts';

describe('the console payouts pages', () => {
  let p: TestPlatform;
  const fake = new FakeTransfers();
  let now = Date.parse('2026-03-02T09:00:00Z');
  let maker: { op: { id: string }; web: WebClient };
  let checker: { op: { id: string }; web: WebClient };
  let reviewer: { op: { id: string }; web: WebClient };
  beforeAll(async () => {
    p = await startPlatform({
      socket: false,
      clock: () => now,
      transfers: fake,
      env: { PAYOUT_INTERVAL_MS: '0' },
    });
    maker = await signedIn(['finance']);
    checker = await signedIn(['finance']);
    reviewer = await signedIn(['finance']);
  });
  afterAll(async () => {
    await p?.close();
  });
  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));
  const statusOf = async (id: string) => (await operatorPayout(p, id)).status;
  const audited = async (action: string, target: string) =>
    (await readAudit(p, { action, target_id: target })).length;

  /** Proposes a destination as `web`; answers the page and the change waiting for approval. */
  async function propose(web: WebClient, id: string, number: string) {
    const page = await web.get(`/console/payees/vendor/${id}`);
    expect(page.status).toBe(200);
    const proposed = await web.post(`/console/payees/vendor/${id}/destination`, {
      _csrf: csrfOf(page.text),
      kind: 'mobile_money',
      network: 'mtn',
      number,
      bank_code: '',
      account_number: '',
      name: 'Kofi Boateng',
    });
    expect(proposed.status).toBe(200);
    expect(proposed.text).toContain('Change proposed: a second operator must approve it');
    return {
      page: proposed,
      changeId: /name="change_id" value="(pdc_\w+)"/.exec(proposed.text)![1]!,
    };
  }

  /** A vendor whose destination the maker proposed and the checker approved in the console (so it is cooling), owed `amount` past the hold. */
  async function owedVendor(web: WebClient, number: string, amount: number): Promise<string> {
    const id = (await createVendor(p)).vendor_id as string;
    const { changeId } = await propose(web, id, number);
    const seen = await checker.web.get(`/console/payees/vendor/${id}`);
    const approved = await checker.web.post(`/console/payees/vendor/${id}/destination/approve`, {
      _csrf: csrfOf(seen.text),
      change_id: changeId,
    });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Approved: the destination is changed');
    await settleSale(p, `vendor_payable:${id}`, amount, now - 30 * HOUR);
    return id;
  }

  /** Runs payouts from the console as `web`; answers the payout made for the vendor. */
  async function runFor(web: WebClient, vendorId: string): Promise<string> {
    const page = await web.get('/console/payouts');
    const ran = await web.post('/console/payouts/run', { _csrf: csrfOf(page.text) });
    // Started at once: the answer is the run's page, which follows the background worker.
    expect(ran.status).toBe(303);
    expect(ran.location).toMatch(/^\/console\/payouts\/runs\/prun_[0-9A-Z]{26}$/);
    await payouts(p).service.settle();
    const run = await web.get(ran.location!);
    expect(run.text).toContain(`data-progress-url="${ran.location}/progress"`);
    expect(run.text).toMatch(/data-field="status" role="status">done</);
    const progress = JSON.parse((await web.get(`${ran.location}/progress`)).text);
    expect(progress).toMatchObject({
      status: 'done',
      created: expect.any(Number),
      sent: expect.any(Number),
      paid: expect.any(Number),
      failed: expect.any(Number),
    });
    expect((await web.get('/console/payouts/runs/prun_nope')).status).toBe(404);
    return (await listedPayouts(p, { payee: `vendor:${vendorId}` }))[0]!.id;
  }

  it('sets a destination (audited, masked, cooling, name mismatch shown), runs, refuses the maker as checker, and a second operator approves', async () => {
    fake.registeredNames.set('0241112233', 'AMA SERWAA MENSAH');
    const vendor = await owedVendor(maker.web, '024 111 2233', 5000);
    expect(await audited('payout_destination.propose', vendor)).toBe(1);
    expect(await audited('payout_destination.approve', vendor)).toBe(1);
    const payee = await maker.web.get(`/console/payees/vendor/${vendor}`);
    expect(payee.text).toContain('MTN mobile money ••• 2233');
    expect(payee.text).not.toContain('0241112233');
    expect(payee.text).toContain('cooling: payouts to it wait for approval');
    expect(payee.text).toContain('registered to <strong>AMA SERWAA MENSAH</strong>');
    expect(payee.text).toContain('GHS 50.00');
    // The provider's name differs: nothing is paid until a finance operator who did not set it accepts it, seeing both names.
    expect(payee.text).toContain('Needs review: nothing is paid to it');
    expect(payee.text).toMatch(
      /Name given<\/dt><dd>Kofi Boateng<\/dd>\s*<dt>Name the provider holds<\/dt><dd>AMA SERWAA MENSAH<\/dd>/,
    );
    const acceptPath = `/console/payees/vendor/${vendor}/destination/accept`;
    expect(payee.text).toContain(`action="${acceptPath}"`);
    for (const [who, version, status, words] of [
      [
        maker,
        '1',
        409,
        'Not accepted: A destination that needs review is accepted by a finance operator who neither proposed nor approved it.',
      ],
      [checker, '1', 409, 'neither proposed nor approved it'],
      [
        reviewer,
        'one',
        400,
        'Not accepted: The version must be the destination version shown on this page.',
      ],
      [reviewer, '2', 409, 'is no longer the destination'],
    ] as const) {
      const refused = await who.web.post(acceptPath, {
        _csrf: csrfOf((await who.web.get(`/console/payees/vendor/${vendor}`)).text),
        version,
      });
      expect([refused.status, refused.text.includes(words)], version).toEqual([status, true]);
    }
    expect(await audited('payout_destination.accept', vendor)).toBe(0);
    const seenByReviewer = await reviewer.web.get(`/console/payees/vendor/${vendor}`);
    const accepted = await reviewer.web.post(acceptPath, {
      _csrf: csrfOf(seenByReviewer.text),
      version: '1',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('Accepted: payouts now go to this destination.');
    expect(accepted.text).toContain(
      `accepted after review by <span title="${reviewer.op.id}">Kwame Ops</span>`,
    );
    expect(accepted.text).not.toContain(`action="${acceptPath}"`);
    expect(await audited('payout_destination.accept', vendor)).toBe(1);

    const id = await runFor(maker.web, vendor);
    expect(await audited('payout_run.create', (await operatorPayout(p, id)).run_id)).toBe(1);
    const list = await maker.web.get('/console/payouts');
    expect(list.text).toContain(`/console/payouts/${id}`);
    expect(list.text).toContain('destination changed recently');
    // Awaiting approval is listed before every other state.
    const states = [
      ...list.text.matchAll(
        /<td>(?:<strong>)?(awaiting_approval|created|sending|pending|paid|failed|reversed|rejected)(?:<\/strong>)?<\/td>/g,
      ),
    ].map((m) => m[1]);
    expect(states[0]).toBe('awaiting_approval');
    const firstOther = states.findIndex((s) => s !== 'awaiting_approval');
    expect(firstOther === -1 ? [] : states.slice(firstOther)).not.toContain('awaiting_approval');

    const detail = await maker.web.get(`/console/payouts/${id}`);
    expect(detail.text).toContain(`action="/console/payouts/${id}/approve"`);
    expect(detail.text).toContain('sale_settlement');
    const own = await maker.web.post(`/console/payouts/${id}/approve`, {
      _csrf: csrfOf(detail.text),
    });
    expect(own.status).toBe(409);
    expect(own.text).toContain(
      'Not approved: A payout is approved by a second finance operator, not the one who created it.',
    );
    expect(await statusOf(id)).toBe('awaiting_approval');
    expect(await audited('payout.approve', id)).toBe(0);

    const seen = await checker.web.get(`/console/payouts/${id}`);
    const approved = await checker.web.post(`/console/payouts/${id}/approve`, {
      _csrf: csrfOf(seen.text),
    });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Approved and sent: the payout is paid.');
    expect(await statusOf(id)).toBe('paid');
    expect(await audited('payout.approve', id)).toBe(1);
    for (const kind of ['payout_created', 'payout_paid', 'payout_fee'])
      expect(approved.text).toContain(`>${kind}</a>`);
    expect(approved.text).not.toContain(`action="/console/payouts/${id}/approve"`);
    // Deciding twice is a 409 shown on the page; the payout stays paid.
    const again = await checker.web.post(`/console/payouts/${id}/reject`, {
      _csrf: csrfOf(seen.text),
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('not awaiting approval');
    expect(await statusOf(id)).toBe('paid');
  });

  it('rejects a payout: the money is owed again', async () => {
    const vendor = await owedVendor(maker.web, '024 222 3344', 3000);
    const id = await runFor(maker.web, vendor);
    const page = await checker.web.get(`/console/payouts/${id}`);
    const rejected = await checker.web.post(`/console/payouts/${id}/reject`, {
      _csrf: csrfOf(page.text),
    });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('Rejected: the money is owed to the payee again');
    expect(rejected.text).toContain('>payout_returned</a>');
    expect(await statusOf(id)).toBe('rejected');
    expect(await audited('payout.reject', id)).toBe(1);
    expect((await checker.web.get(`/console/payees/vendor/${vendor}`)).text).toMatch(
      /Available<\/dt><dd>GHS 30\.00/,
    );
  });

  it("on an approved change, shows the payee's unsent payout cancelled and replaced by one for the new destination", async () => {
    const vendor = await owedVendor(maker.web, '024 555 6677', 2500);
    const id = await runFor(maker.web, vendor);
    expect(await statusOf(id)).toBe('awaiting_approval');
    const { changeId } = await propose(maker.web, vendor, '054 555 6688');
    const seen = await checker.web.get(`/console/payees/vendor/${vendor}`);
    const approved = await checker.web.post(
      `/console/payees/vendor/${vendor}/destination/approve`,
      { _csrf: csrfOf(seen.text), change_id: changeId },
    );
    expect(approved.status).toBe(200);
    const replacement = (await operatorPayout(p, id)).replaced_by;
    expect(approved.text).toContain(
      `1 unsent payout(s) were cancelled and made again for it: ${id} → ${replacement}.`,
    );
    const shown = `cancelled, replaced by <a href="/console/payouts/${replacement}"><code>${replacement}</code></a>`;
    expect(approved.text).toContain(shown);
    expect((await checker.web.get('/console/payouts')).text).toContain(shown);
    const old = await checker.web.get(`/console/payouts/${id}`);
    expect(old.text).toContain(
      `<dt>State</dt><dd id="state"><strong>cancelled</strong>, replaced by <a href="/console/payouts/${replacement}">`,
    );
    expect(old.text).toContain('payout cancelled before it was sent: its destination was replaced');
    expect(old.text).not.toContain(`action="/console/payouts/${id}/approve"`);
    const made = await checker.web.get(`/console/payouts/${replacement}`);
    expect(made.text).toContain('MTN mobile money ••• 6688');
    expect(made.text).toContain(`action="/console/payouts/${replacement}/approve"`);
  });

  it('changes a destination only with a second operator: the proposer cannot approve, a rejection keeps the old one', async () => {
    const vendor = await owedVendor(maker.web, '024 333 4455', 1500);
    const { page, changeId } = await propose(maker.web, vendor, '054 333 4466');
    expect(page.text).toContain('Change waiting for approval');
    expect(page.text).toContain('MTN mobile money ••• 4466');
    expect(page.text).not.toContain('0543334466');
    const own = await maker.web.post(`/console/payees/vendor/${vendor}/destination/approve`, {
      _csrf: csrfOf(page.text),
      change_id: changeId,
    });
    expect(own.status).toBe(409);
    expect(own.text).toContain(
      'Not approved: A destination change is approved by a second operator, not the one who proposed it.',
    );
    expect(own.text).toContain('MTN mobile money ••• 4455 · Kofi Boateng');
    // Another proposal waits until this one is decided.
    const second = await maker.web.post(`/console/payees/vendor/${vendor}/destination`, {
      _csrf: csrfOf(page.text),
      kind: 'bank',
      network: '',
      number: '',
      bank_code: '280100',
      account_number: '1234567890',
      name: 'Kofi Boateng',
    });
    expect(second.status).toBe(409);
    const seen = await checker.web.get(`/console/payees/vendor/${vendor}`);
    const rejected = await checker.web.post(`/console/payees/vendor/${vendor}/destination/reject`, {
      _csrf: csrfOf(seen.text),
      change_id: changeId,
    });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('Rejected: the destination stays as it was.');
    expect(rejected.text).not.toContain('Change waiting for approval');
    expect((await payeeDestination(p, `vendor:${vendor}`))!.number).toBe('0243334455');
    expect(await audited('payout_destination.reject', vendor)).toBe(1);
  });

  it("sets a vendor's payout schedule (audited) and shows what it owes back", async () => {
    const vendor = (await createVendor(p)).vendor_id as string;
    const page = await maker.web.get(`/console/payees/vendor/${vendor}`);
    expect(page.text).toContain('<dd id="schedule">Daily</dd>');
    expect(page.text).toMatch(/<dd id="receivable">GHS 0\.00/);
    const saved = await maker.web.post(`/console/payees/vendor/${vendor}/schedule`, {
      _csrf: csrfOf(page.text),
      schedule: 'same_day',
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain(
      'Saved: this vendor is also paid after each courier cash handover',
    );
    expect(saved.text).toContain('Same day: also paid after each courier cash handover');
    expect(await audited('payout_schedule.set', vendor)).toBe(1);
  });

  it('refuses bad input with a 4xx page and changes nothing', async () => {
    const vendor = (await createVendor(p)).vendor_id as string;
    const page = await maker.web.get(`/console/payees/vendor/${vendor}`);
    const csrf = csrfOf(page.text);
    const form = {
      _csrf: csrf,
      kind: 'mobile_money',
      network: 'mtn',
      number: '030 221 1234',
      bank_code: '',
      account_number: '',
      name: 'K',
    };
    const bad = await maker.web.post(`/console/payees/vendor/${vendor}/destination`, form);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Not proposed: Invalid destination');
    expect(bad.text).toContain('value="030 221 1234"');
    for (const body of [
      { ...form, kind: 'cash' },
      { ...form, kind: 'bank', bank_code: '!', account_number: '12', name: 'Kofi Boateng' },
      { ...form, name: 'a\u0000b' },
      { ...form, name: 'x'.repeat(121) },
    ]) {
      expect(
        (await maker.web.post(`/console/payees/vendor/${vendor}/destination`, body)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(await payeeDestination(p, `vendor:${vendor}`)).toBeNull();
    expect(
      await countRows(
        p,
        'select count(*)::int as n from payout_destination_changes where payee = $1',
        [`vendor:${vendor}`],
      ),
    ).toBe(0);
    expect(
      (
        await maker.web.post(`/console/payees/vendor/${vendor}/schedule`, {
          _csrf: csrf,
          schedule: 'hourly',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await maker.web.post(`/console/payees/vendor/${vendor}/destination/approve`, {
          _csrf: csrf,
          change_id: 'pdc_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        })
      ).status,
    ).toBe(404);
    for (const version of ['-1', '0', '1.5', '12345678901', ''])
      expect(
        (
          await maker.web.post(`/console/payees/vendor/${vendor}/destination/accept`, {
            _csrf: csrf,
            version,
          })
        ).status,
        version,
      ).toBe(400);
    expect(
      (
        await maker.web.post(`/console/payees/vendor/${vendor}/destination/accept`, {
          _csrf: csrf,
          version: '1',
        })
      ).status,
    ).toBe(404);
    const good = { ...form, number: '024 123 4567', name: 'Kofi Boateng' };
    expect(
      (
        await maker.web.post(
          '/console/payees/vendor/ven_01ARZ3NDEKTSV4RRFFQ69G5FAV/destination',
          good,
        )
      ).status,
    ).toBe(404);
    expect((await maker.web.post(`/console/payees/shop/${vendor}/destination`, good)).status).toBe(
      404,
    );
    expect((await maker.web.get('/console/payees/vendor/nope')).status).toBe(404);
    expect((await maker.web.get('/console/payouts/pout_nope')).status).toBe(404);
    expect((await maker.web.get('/console/payouts/pout_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(
      404,
    );
    expect(
      (
        await maker.web.post('/console/payouts/pout_01ARZ3NDEKTSV4RRFFQ69G5FAV/approve', {
          _csrf: csrf,
        })
      ).status,
    ).toBe(404);
    // Without the form token nothing runs.
    const runs = (await listedRuns(p)).length;
    expect((await maker.web.post('/console/payouts/run', {})).status).toBe(403);
    expect(await listedRuns(p)).toHaveLength(runs);
    expect(
      (await readAudit(p, { target_id: vendor })).filter((e) => e.action.startsWith('payout')),
    ).toHaveLength(0);
  });

  it('is for finance and admin only, with the navigation link for them', async () => {
    const admin = await signedIn(['admin']);
    const list = await admin.web.get('/console/payouts');
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/console/payouts" aria-current="page"');
    const support = await signedIn(['support']);
    const other = await support.web.get('/console/webhooks');
    expect(other.text).not.toContain('href="/console/payouts"');
    expect((await support.web.get('/console/payouts')).status).toBe(403);
    const vendor = (await createVendor(p)).vendor_id as string;
    expect((await support.web.get(`/console/payees/vendor/${vendor}`)).status).toBe(403);
    const runs = (await listedRuns(p)).length;
    expect(
      (await support.web.post('/console/payouts/run', { _csrf: csrfOf(other.text) })).status,
    ).toBe(403);
    expect(await listedRuns(p)).toHaveLength(runs);
  });
});
