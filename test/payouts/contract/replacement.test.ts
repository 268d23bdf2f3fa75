import { describe, expect, it } from 'vitest';
import { PAYOUT_JOURNAL_KINDS } from '../../../src/modules/payouts/index.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { audited } from '../../helpers/audit.ts';
import type { TestPlatform } from '../../helpers/harness.ts';
import { payeeDestination } from '../../helpers/payouts-read.ts';
import { operatorWithToken } from '../../operators/helpers.ts';
import {
  balanceOf,
  checkerToken,
  expectBalanced,
  HOUR,
  payouts,
  settleSale,
  vendorPayee,
  runPayouts,
} from '../helpers.ts';
import { usePayoutsPlatform } from '../platform.ts';

let p: TestPlatform;
const fake = new FakeTransfers();
const now = Date.parse('2026-03-02T09:00:00Z');
usePayoutsPlatform(
  () => now,
  fake,
  (started) => (p = started),
);

const db = () => p.app.platform.db;
const payout = async (id: string) =>
  (await p.admin('GET', `/payouts/${id}`)).body as Record<string, any>;
const ofPayee = async (payee: string) =>
  (
    (await p.admin('GET', `/payouts?payee=${payee}`)).body.data as Array<Record<string, any>>
  ).reverse();
const propose = async (vendor: string, number: string) => {
  const r = await p.admin('POST', `/payees/vendor/${vendor}/destination`, {
    kind: 'mobile_money',
    network: 'mtn',
    number,
    name: 'Kofi Boateng',
  });
  expect(r.status).toBe(202);
  return r.body.pending_change.change_id as string;
};
const approveChange = async (vendor: string, changeId: string, token?: string) =>
  p.admin(
    'POST',
    `/payees/vendor/${vendor}/destination/approve`,
    { change_id: changeId },
    token ?? (await checkerToken(p)),
  );

/** A vendor (destination 024 …, verified, past cooling) with one payout waiting for approval (above the approval amount). */
async function vendorWithHeldPayout(number: string, amount = 600_000) {
  const v = await vendorPayee(p, number);
  await settleSale(p, v.account, amount, now - 30 * HOUR);
  expect((await runPayouts(p)).status).toBe(202);
  const [held] = await ofPayee(`vendor:${v.id}`);
  expect(held).toMatchObject({
    status: 'awaiting_approval',
    approval_reasons: ['amount'],
    destination_version: 1,
  });
  return { ...v, payee: `vendor:${v.id}`, held: held!.id as string };
}

describe('an approved destination change', () => {
  it("cancels the payee's unsent payouts and makes them again for the new destination, with new ids, keeping the books true", async () => {
    const v = await vendorWithHeldPayout('024 810 0001');
    // A second payout, approved while its destination waited for verification (as migration 046 leaves
    // existing destinations): created, not yet sent.
    await settleSale(p, v.account, 700_000, now - 29 * HOUR);
    await runPayouts(p);
    const second = (await ofPayee(v.payee))[1]!.id as string;
    await db().query(
      "update payout_destinations set verification = 'unverified' where payee = $1",
      [v.payee],
    );
    const approved = await p.admin(
      'POST',
      `/payouts/${second}/approve`,
      undefined,
      await checkerToken(p),
    );
    expect(approved.body.status).toBe('created');
    expect(await balanceOf(p, 'payouts_in_transit')).toBeGreaterThanOrEqual(1_300_000);
    const transitBefore = await balanceOf(p, 'payouts_in_transit');

    const changeId = await propose(v.id, '054 810 0002');
    const done = await approveChange(v.id, changeId);
    expect(done.status).toBe(200);
    expect(done.body.destination).toMatchObject({
      number: '0548100002',
      version: 2,
      verification: 'verified',
    });
    const replaced = done.body.replaced as Array<{
      cancelled: string;
      replaced_by: string;
      status: string;
    }>;
    expect(replaced.map((r) => r.cancelled).sort()).toEqual([v.held, second].sort());

    for (const r of replaced) {
      const [old, made] = [await payout(r.cancelled), await payout(r.replaced_by)];
      expect(old).toMatchObject({ status: 'cancelled', replaced_by: made.id });
      // Same money, same run and lines; the new destination and version; cooling and amount hold it for approval.
      expect(made).toMatchObject({
        status: 'awaiting_approval',
        run_id: old.run_id,
        amount_pesewas: old.amount_pesewas,
        destination_version: 2,
        replaced_by: null,
      });
      expect(made.destination.number).toBe('0548100002');
      expect(made.approval_reasons.sort()).toEqual(['amount', 'destination_changed']);
      expect(made.lines.map((l: { journal_id: string }) => l.journal_id)).toEqual(
        old.lines.map((l: { journal_id: string }) => l.journal_id),
      );
      // Oldest first; journals posted at the same instant by kind.
      const journals = (
        await p.app.platform.journals.about(PAYOUT_JOURNAL_KINDS, r.cancelled)
      ).sort(
        (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.kind < b.kind ? -1 : 1),
      );
      expect(journals.map((j) => j.kind)).toEqual(['payout_created', 'payout_returned']);
      expect(journals[1]!.memo).toContain('destination was replaced');
    }
    // The cancelled payouts' money went back to the payable and out again: nothing owed twice, transit unchanged.
    expect(await balanceOf(p, v.account)).toBe(0);
    expect(await balanceOf(p, 'payouts_in_transit')).toBe(transitBefore);
    await expectBalanced(p);
    // Audited with what it replaced.
    const entries = await audited(p, { action: 'payout_destination.approve', target_id: v.id });
    const logged = entries.map((e) => e.after.response.replaced.length);
    expect(logged.sort()).toEqual([0, 2]); // the first destination (nothing to replace), then this change

    // The replacement goes to the new wallet once approved; the cancelled payouts never reach the provider.
    const made = replaced.find((r) => r.cancelled === v.held)!.replaced_by;
    expect(
      (await p.admin('POST', `/payouts/${made}/approve`, undefined, await checkerToken(p))).body
        .status,
    ).toBe('paid');
    expect(fake.transfers.get(made)!.destination).toMatchObject({ number: '0548100002' });
    for (const r of replaced) expect(fake.transfers.has(r.cancelled)).toBe(false);
    // A cancelled payout cannot be approved or rejected.
    expect(
      (await p.admin('POST', `/payouts/${v.held}/approve`, undefined, await checkerToken(p))).body
        .code,
    ).toBe('INVALID_TRANSITION');
  });

  it('is refused (409 PAYOUT_SENDING) while a payout to the payee is being sent, changing nothing', async () => {
    const v = await vendorWithHeldPayout('024 810 0003');
    const changeId = await propose(v.id, '054 810 0004');
    let during: { status: number; code: string } | undefined;
    fake.onArrival = async ({ reference }) => {
      if (reference !== v.held) return;
      const r = await approveChange(v.id, changeId);
      during = { status: r.status, code: r.body.code };
    };
    try {
      expect(
        (await p.admin('POST', `/payouts/${v.held}/approve`, undefined, await checkerToken(p))).body
          .status,
      ).toBe('paid');
    } finally {
      fake.onArrival = undefined;
    }
    expect(during).toEqual({ status: 409, code: 'PAYOUT_SENDING' });
    expect(fake.transfers.get(v.held)!.destination).toMatchObject({ number: '0248100003' });
    expect((await p.admin('GET', `/payees/vendor/${v.id}`)).body).toMatchObject({
      destination: { number: '0248100003', version: 1 },
      pending_change: { change_id: changeId },
    });
    // Once the send is answered, the change goes through (nothing left to replace).
    const later = await approveChange(v.id, changeId);
    expect([later.status, later.body.replaced]).toEqual([200, []]);
  });
});

describe('the sender', () => {
  it('never sends a payout made for a destination version that is no longer current: it cancels it and makes it again for the current one', async () => {
    const v = await vendorWithHeldPayout('024 810 0005', 2000 + 600_000);
    const done = await approveChange(v.id, await propose(v.id, '054 810 0006'));
    const made = done.body.replaced[0].replaced_by as string;
    // As a run that read the destination just before the change committed would have made it: for version 1, created.
    await db().query(
      `update payouts set status = 'created', destination_version = 1, destination = $2 where id = $1`,
      [
        made,
        JSON.stringify({
          kind: 'mobile_money',
          network: 'mtn',
          number: '0248100005',
          name: 'Kofi Boateng',
        }),
      ],
    );
    const sent = await payouts(p).sender.send(made);
    expect(sent).toMatchObject({
      status: 'cancelled',
      replaced_by: expect.stringMatching(/^pout_/),
    });
    expect(fake.transfers.has(made)).toBe(false);
    expect(await payout(sent!.replaced_by!)).toMatchObject({
      status: 'awaiting_approval',
      destination_version: 2,
      destination: { number: '0548100006' },
    });
    await expectBalanced(p);
  });

  it('leaves a payout whose destination is not verified unsent, and sends it once it is', async () => {
    const v = await vendorWithHeldPayout('024 810 0007');
    await db().query(
      "update payout_destinations set verification = 'unverified' where payee = $1",
      [v.payee],
    );
    expect(
      (await p.admin('POST', `/payouts/${v.held}/approve`, undefined, await checkerToken(p))).body
        .status,
    ).toBe('created');
    expect(fake.transfers.has(v.held)).toBe(false);
    await payouts(p).verifier.verifyPending();
    await payouts(p).sender.recover();
    expect((await payout(v.held)).status).toBe('paid');
  });
});

describe('a destination change racing the sender', () => {
  it('sends either before the change commits, to the old wallet, or after, to the new one; never to the old one after', async () => {
    const checker = (await operatorWithToken(p, ['finance'])).token;
    fake.arrivalDelayMs = 25;
    // Each transfer, as it reaches the provider, is compared with the destination committed at that instant.
    const arrivals: Array<{ reference: string; sentTo: string; committed: string }> = [];
    fake.onArrival = async ({ reference, destination }) => {
      const committed = await payeeDestination(p, (await payout(reference)).payee);
      arrivals.push({
        reference,
        sentTo:
          destination.kind === 'mobile_money' ? destination.number : destination.accountNumber,
        committed: committed!.number,
      });
    };
    const outcomes: string[] = [];
    try {
      // The change's approval starts this long after the payout's (before it, when negative): from well
      // before its claim, through the transfer's way to the provider, to after its answer.
      for (const [round, offsetMs] of [
        -60, -30, -15, -5, 0, 5, 10, 20, 30, 45, 70, 120,
      ].entries()) {
        const v = await vendorWithHeldPayout(`024 811 ${String(round).padStart(4, '0')}`);
        const changeId = await propose(v.id, `054 811 ${String(round).padStart(4, '0')}`);
        const later = (ms: number, call: () => Promise<{ status: number; body: any }>) =>
          new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0))).then(call);
        const [sent, changed] = await Promise.all([
          later(-offsetMs, () => p.admin('POST', `/payouts/${v.held}/approve`, undefined, checker)),
          later(offsetMs, () => approveChange(v.id, changeId)),
        ]);
        outcomes.push(
          `${sent.status === 200 ? sent.body.status : sent.body.code}/${changed.status === 200 ? 'changed' : changed.body.code}`,
        );
        if (changed.status !== 200) expect(changed.body.code).toBe('PAYOUT_SENDING');
        const old = await payout(v.held);
        if (old.status === 'cancelled') expect(fake.transfers.has(v.held)).toBe(false);
      }
    } finally {
      fake.arrivalDelayMs = 0;
      fake.onArrival = undefined;
    }
    expect(arrivals.length).toBeGreaterThan(0);
    for (const a of arrivals)
      expect(a.sentTo, `${a.reference} (outcomes ${outcomes.join(', ')})`).toBe(a.committed);
    await expectBalanced(p);
  });
});
