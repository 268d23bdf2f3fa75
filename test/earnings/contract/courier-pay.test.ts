import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courierNear, productionOrder, toDropoff, ZONE } from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { journalCount, legsAbout } from '../../helpers/ledger-read.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

let p: TestPlatform;
let s: PartnerSetup;
// Moved forward by the tests that need a rule version to come into force.
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

const rule = (over: Record<string, unknown> = {}) => ({
  zone: ZONE,
  vehicle: 'motorbike',
  base_pesewas: 500,
  per_km_pesewas: 100,
  per_failed_attempt_pesewas: 200,
  ...over,
});
const db = () => p.app.platform.db;
const earningsOf = (orderId: string) =>
  db().query<{
    id: string;
    occasion: string;
    amount_pesewas: number;
    netted_pesewas: number;
    rule_id: string | null;
  }>(
    'select id, occasion, amount_pesewas::int, netted_pesewas::int, rule_id from courier_earnings where order_id = $1 order by occasion',
    [orderId],
  );
const legs = (subject: string, kind: string) => legsAbout(p, [kind], subject);
const trialBalance = async () =>
  Number(
    (
      await db().query<{ n: string }>(
        'select coalesce(sum(amount_pesewas), 0)::text as n from ledger_entries',
      )
    )[0]!.n,
  );
const unbalancedJournals = () =>
  countRows(
    p,
    'select count(*)::int as n from (select journal_id from ledger_entries group by journal_id having sum(amount_pesewas) <> 0) u',
  );

async function delivered(courierId: string): Promise<string> {
  const id = await productionOrder(s);
  await toDropoff(p, id, courierId);
  await p.app.platform.dispatch!.service.delivered(courierId, id);
  return id;
}

describe("couriers' pay rules", () => {
  it('adds a version per change, audited, and lists every version', async () => {
    const first = await p.admin('POST', '/courier-pay/rules', rule());
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ version: 1, zone: ZONE, base_pesewas: 500 });
    const second = await p.admin('POST', '/courier-pay/rules', rule({ base_pesewas: 600 }));
    expect(second.body.version).toBe(2);
    const listed = (await p.admin('GET', '/courier-pay/rules')).body.data as Array<{
      version: number;
      zone: string;
    }>;
    expect(listed.filter((r) => r.zone === ZONE).map((r) => r.version)).toEqual([2, 1]);
    expect((await audited(p, { action: 'pay_rule.create' })).length).toBe(2);
  });

  it('numbers concurrent changes without a gap or a repeat', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        p.admin('POST', '/courier-pay/rules', rule({ zone: 'volta', base_pesewas: i })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const versions = results.map((r) => r.body.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const policies = await Promise.all(
      [true, false, true, false].map((net_cod_cash) =>
        p.admin('POST', '/courier-pay/policy', { net_cod_cash }),
      ),
    );
    expect(policies.map((r) => r.body.version as number).sort()).toEqual([1, 2, 3, 4]);
    // Back to the default (off) for the tests that follow.
    await p.admin('POST', '/courier-pay/policy', { net_cod_cash: false });
  });

  it('refuses hostile input with 400 and a code, saving nothing', async () => {
    const before = await countRows(p, 'select count(*)::int as n from courier_pay_rules');
    const bad = [
      rule({ base_pesewas: -1 }),
      rule({ per_km_pesewas: 1.5 }),
      rule({ per_failed_attempt_pesewas: 1e12 }),
      rule({ base_pesewas: '500' }),
      rule({ vehicle: 'bicycle' }),
      rule({ zone: 'Greater Accra' }),
      rule({ zone: '' }),
      rule({ effective_from: '2001-01-01T00:00:00Z' }),
      rule({ effective_from: 'tomorrow' }),
      rule({ extra: true }),
      ...['x'.repeat(10_000), "a'; drop table couriers; --", 'a\u0000b', '../..', '<script>'].map(
        (zone) => rule({ zone }),
      ),
      rule({ vehicle: { $ne: 1 } }),
    ];
    for (const body of bad) {
      const res = await p.admin('POST', '/courier-pay/rules', body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect(await countRows(p, 'select count(*)::int as n from courier_pay_rules')).toBe(before);
    const policy = await p.admin('POST', '/courier-pay/policy', { net_cod_cash: 'yes' });
    expect(policy.status).toBe(400);
  });
});

describe('earnings booked at delivery', () => {
  it("pays the version in force at delivery: base + per road-km, on the courier's payable", async () => {
    const c = await courierNear(p, 1, now);
    const id = await delivered(c.id);
    const km = await p.app.platform.delivery!.orders.roadKm(id);
    expect(km).toBeGreaterThan(0);
    const [earning] = await earningsOf(id);
    expect(earning).toMatchObject({
      occasion: 'delivered',
      amount_pesewas: 600 + Math.round(100 * km),
    });
    expect(await legs(earning!.id, 'courier_earning')).toEqual([
      { account: 'courier_pay', amount_pesewas: -earning!.amount_pesewas },
      { account: `courier_payable:${c.id}`, amount_pesewas: earning!.amount_pesewas },
    ]);

    // A version that starts in a minute does not price today's delivery, but prices the next one after.
    await p.admin(
      'POST',
      '/courier-pay/rules',
      rule({ base_pesewas: 900, effective_from: new Date(now + 60_000).toISOString() }),
    );
    const early = await delivered((await courierNear(p, 1, now)).id);
    expect((await earningsOf(early))[0]!.amount_pesewas).toBe(600 + Math.round(100 * km));
    now += 120_000;
    const later = await delivered((await courierNear(p, 1, now)).id);
    expect((await earningsOf(later))[0]!.amount_pesewas).toBe(900 + Math.round(100 * km));
  });

  it('pays each failed trip its flat rate, then the delivery', async () => {
    const c = await courierNear(p, 1, now);
    const id = await productionOrder(s);
    await toDropoff(p, id, c.id);
    const svc = p.app.platform.dispatch!.service;
    await svc.couldNotDeliver(c.id, id, 'recipient_absent');
    const after = await earningsOf(id);
    expect(after.map((e) => [e.occasion, e.amount_pesewas])).toEqual([['failed_attempt:1', 200]]);
  });

  it('books one earning and one journal when the same occasion arrives many times at once', async () => {
    const c = await courierNear(p, 1, now);
    const id = await delivered(c.id);
    const earnings = p.app.platform.earnings;
    const job = {
      orderId: id,
      courierId: c.id,
      occasion: 'delivered' as const,
      zone: ZONE,
      vehicle: 'motorbike',
      roadKm: 3,
    };
    const booked = await Promise.all(
      Array.from({ length: 8 }, () => db().transaction((tx) => earnings.book(tx, job))),
    );
    expect(booked.filter(Boolean)).toEqual([]);
    const fresh = { ...job, occasion: 'failed_attempt:7' as const };
    const raced = await Promise.all(
      Array.from({ length: 8 }, () => db().transaction((tx) => earnings.book(tx, fresh))),
    );
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await earningsOf(id)).toHaveLength(2);
    let journals = 0;
    for (const e of await earningsOf(id))
      journals += await journalCount(p, ['courier_earning'], e.id);
    expect(journals).toBe(2);
  });

  it('books one earning when two delivered actions for the order race', async () => {
    const c = await courierNear(p, 1, now);
    const id = await productionOrder(s);
    await toDropoff(p, id, c.id);
    const svc = p.app.platform.dispatch!.service;
    const results = await Promise.allSettled([svc.delivered(c.id, id), svc.delivered(c.id, id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await earningsOf(id)).map((e) => e.occasion)).toEqual(['delivered']);
  });

  it('nets cash the courier holds only once the policy says so, keeping the books balanced', async () => {
    const c = await courierNear(p, 1, now);
    const first = await delivered(c.id);
    expect((await earningsOf(first))[0]!.netted_pesewas).toBe(0);
    const held = await p.app.platform.cash!.balance(c.id);
    expect(held).toBeGreaterThan(0);

    const policy = await p.admin('POST', '/courier-pay/policy', { net_cod_cash: true });
    expect(policy.status).toBe(201);
    const second = await delivered(c.id);
    const [earning] = await earningsOf(second);
    const heldBefore = held * 2; // the second order's fee was collected in the same action
    const netted = Math.min(earning!.amount_pesewas, heldBefore);
    expect(earning!.netted_pesewas).toBe(netted);
    expect(await p.app.platform.cash!.balance(c.id)).toBe(heldBefore - netted);
    expect(await legs(earning!.id, 'courier_cash_netted')).toEqual([
      { account: `courier_cash:${c.id}`, amount_pesewas: netted },
      { account: `courier_payable:${c.id}`, amount_pesewas: -netted },
    ]);
    await p.admin('POST', '/courier-pay/policy', { net_cod_cash: false });
    expect(await trialBalance()).toBe(0);
    expect(await unbalancedJournals()).toBe(0);
  });

  it('books nothing for an order an operator moved without a courier', async () => {
    const id = await productionOrder(s);
    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered']) {
      const res = await p.admin('POST', `/delivery/orders/${id}/status`, { status });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await earningsOf(id)).toEqual([]);
  });
});
