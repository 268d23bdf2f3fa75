import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourierAction } from '../../../src/modules/couriers/index.ts';
import { productionOrder } from '../../dispatch/helpers.ts';
import { signedInCourier } from '../../helpers/courier.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { allTexts } from '../../helpers/outbox-read.ts';

// One record per courier action (issue 27): the courier app's action id is claimed in courier_actions
// in the same transaction as dispatch's effect, and a replay, sent again or several at once, is
// answered from that record. On PostgreSQL the concurrent sendings really overlap (a pool of
// connections); on PGlite they take turns.

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p.close());

type Courier = Awaited<ReturnType<typeof signedInCourier>>;
const db = () => p.app.platform.db;
const action = (kind: string, payload: Record<string, unknown>): CourierAction => ({
  id: randomUUID(),
  kind,
  at: new Date(),
  payload,
});
const records = async (courierId: string) =>
  (await p.app.platform.courierActions.history(courierId)).map(
    ({ kind, outcome, reason, result }) => ({ kind, outcome, reason, result }),
  );
const moves = async (orderId: string, status: string) =>
  countRows(
    p,
    'select count(*)::int as n from delivery_order_events where order_id = $1 and status = $2',
    [orderId, status],
  );

/** An order whose job `c` holds at the drop-off, the recipient's code (answered) not yet given. */
async function atDropoff(c: Courier): Promise<{ id: string; code: string }> {
  const id = await productionOrder(s);
  const svc = p.app.platform.dispatch!.service;
  await svc.assign(id, c.id);
  await svc.pickedUp(c.id, id);
  await svc.arrived(c.id, id);
  const { code } = await p.app.platform.proofs.issueCode(id, { rotate: true });
  return { id, code: code! };
}

/** The action posted from the courier app, as its queue sends it. */
async function post(c: Courier, a: CourierAction) {
  const res = await c.web.request('POST', '/courier/actions', {
    body: JSON.stringify({ ...a, at: a.at.toISOString() }),
    headers: { 'content-type': 'application/json', origin: c.web.base, 'x-csrf-token': c.csrf },
  });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as Record<string, unknown>;
}

describe("a courier's action, one record", () => {
  it('delivers with the code once when the phone sends it three times at once, and keeps one record with its answer', async () => {
    const c = await signedInCourier(p);
    const { id, code } = await atDropoff(c);
    const delivered = action('delivered', { order_id: id, code });
    const answers = await Promise.all([0, 1, 2].map(() => post(c, delivered)));
    expect(answers.map((a) => a.result).sort()).toEqual([
      'already_applied',
      'already_applied',
      'applied',
    ]);
    for (const a of answers)
      expect(a).toMatchObject({ id: delivered.id, stage: 'delivered', status: 'delivered' });
    expect(await moves(id, 'delivered')).toBe(1);
    expect(await records(c.id)).toEqual([
      {
        kind: 'delivered',
        outcome: 'applied',
        reason: null,
        result: { stage: 'delivered', status: 'delivered' },
      },
    ]);
    // Sent again later (the phone's queue after a lost answer): the stored answer, nothing applied.
    expect(await post(c, delivered)).toEqual({
      id: delivered.id,
      result: 'already_applied',
      stage: 'delivered',
      status: 'delivered',
    });
    expect(await moves(id, 'delivered')).toBe(1);
  });

  it('keeps a wrong code counted with the refusal, answers a replay of it the same without counting again', async () => {
    const c = await signedInCourier(p);
    const { id, code } = await atDropoff(c);
    const wrong = action('delivered', { order_id: id, code: code === '0000' ? '1111' : '0000' });
    const refused = await post(c, wrong);
    expect(refused).toMatchObject({
      result: 'refused',
      reason: expect.stringMatching(/4 tries/),
      code: 'INVALID_DELIVERY_CODE',
    });
    expect(await post(c, wrong)).toEqual(refused);
    expect(
      await db().query('select failed_attempts from delivery_codes where order_id = $1', [id]),
    ).toEqual([{ failed_attempts: 1 }]);
    expect(await records(c.id)).toEqual([
      {
        kind: 'delivered',
        outcome: 'refused',
        reason: refused.reason,
        result: { code: 'INVALID_DELIVERY_CODE' },
      },
    ]);
    expect(await post(c, action('delivered', { order_id: id, code }))).toMatchObject({
      result: 'applied',
      status: 'delivered',
    });
    expect(await moves(id, 'delivered')).toBe(1);
  });

  it("rolls the claim back with the handler's effect on a failure of ours, so the replay applies it", async () => {
    const c = await signedInCourier(p);
    let fail = true;
    const seen: string[] = [];
    p.app.platform.courierActions.register(
      'test_flaky_duty',
      async ({ courierId, afterCommit }) => {
        await p.app.platform.couriers.setDuty(courierId, true);
        afterCommit(async () => {
          // After the commit: the record is there for anyone to read.
          const [row] = await records(courierId);
          seen.push(row?.outcome ?? 'none');
        });
        if (fail) throw new Error('the database went away');
      },
    );
    const flaky = action('test_flaky_duty', {});
    await expect(p.app.platform.courierActions.apply(c.id, flaky)).rejects.toThrow(/went away/);
    // Nothing of it was kept: neither the claim nor the courier going on duty, nor its after-commit work.
    expect(await records(c.id)).toEqual([]);
    expect((await p.app.platform.couriers.get(c.id)).on_duty).toBe(false);
    expect(seen).toEqual([]);
    fail = false;
    expect(await p.app.platform.courierActions.apply(c.id, flaky)).toEqual({
      id: flaky.id,
      result: 'applied',
    });
    expect((await p.app.platform.couriers.get(c.id)).on_duty).toBe(true);
    expect(seen).toEqual(['applied']);
    expect(await records(c.id)).toEqual([
      { kind: 'test_flaky_duty', outcome: 'applied', reason: null, result: null },
    ]);
  });

  it('texts the recipient their code once, after the accept has committed', async () => {
    const c = await signedInCourier(p);
    const svc = p.app.platform.dispatch!.service;
    const id = await productionOrder(s);
    await p.app.platform.couriers.setDuty(c.id, true);
    await p.app.platform.dispatch!.offers.offerTo(id, c.id);
    const texts = async () =>
      (await allTexts(p)).filter((t) => t.body.includes('Delivery code')).length;
    const before = await texts();
    const accept = action('accept', { order_id: id });
    const answers = await Promise.all([0, 1].map(() => post(c, accept)));
    expect(answers.map((a) => a.result).sort()).toEqual(['already_applied', 'applied']);
    expect(await svc.currentJob(c.id)).toEqual({ kind: 'job', order_id: id, stage: 'accepted' });
    expect(await texts()).toBe(before + 1);
    expect(await moves(id, 'accepted')).toBe(1);
  });
});
