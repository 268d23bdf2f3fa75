import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchService } from '../../../src/modules/dispatch/index.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { storedOrder } from '../../helpers/orders-read.ts';
import { balance, expectLedgerConsistent, topUp, walletPartner } from '../../wallet/helpers.ts';
import { codeOf, courierNear, productionOrder, toDropoff } from '../helpers.ts';

/** A courier's failed delivery through dispatch: another attempt, the return to the pickup, and its fee. */
let p: TestPlatform;
let s: PartnerSetup;
let svc: DispatchService;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  s = await createPartner(p, { environment: 'production' });
  svc = p.app.platform.dispatch!.service;
});
afterAll(() => p.close());

const db = () => p.app.platform.db;
/** The order's state as the delivery module's face finds it, with what orders.get does not show (version). */
const row = async (id: string) => {
  const { status, version, delivery_attempts, failure_reason, failure_note, return_fee_pesewas } =
    await storedOrder(p, id);
  return { status, version, delivery_attempts, failure_reason, failure_note, return_fee_pesewas };
};
const assignment = async (id: string) =>
  (
    await db().query<any>(
      'select courier_id, stage, ended_at, end_reason from dispatch_assignments where order_id = $1 order by started_at desc limit 1',
      [id],
    )
  )[0];
const jobState = async (id: string) =>
  (
    await db().query<{ state: string }>('select state from dispatch_jobs where order_id = $1', [id])
  )[0]!.state;
const outbox = async (id: string): Promise<any[]> =>
  (await eventsAbout(p, id)).sort((a, b) => a.sequence - b.sequence);

/** An order at the drop-off with its courier, the recipient's code already given. */
async function atDropoff(orderId?: string) {
  const id = orderId ?? (await productionOrder(s));
  const courier = await courierNear(p, 0.5, Date.now());
  await toDropoff(p, id, courier.id);
  return { id, courier: courier.id };
}

/** The status and code of a refused call. */
async function refusal(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
    return [200, 'OK'];
  } catch (err) {
    const e = err as { statusCode?: number; code?: string };
    return [e.statusCode ?? 500, e.code ?? String(err)];
  }
}

describe("a courier's could-not-deliver", () => {
  it('sends the order out again, then back to the pickup, and "returned" ends the job, with timeline and events', async () => {
    const { id, courier } = await atDropoff();
    expect(
      await svc.couldNotDeliver(courier, id, 'recipient_absent', ' Nobody at the gate '),
    ).toEqual({
      order_id: id,
      action: 'could_not_deliver',
      stage: 'picked_up',
      status: 'in_transit',
    });
    expect(await row(id)).toMatchObject({
      status: 'in_transit',
      delivery_attempts: 2,
      failure_reason: 'recipient_absent',
      failure_note: 'Nobody at the gate',
    });
    // The courier keeps the job and arrives again for the second attempt.
    expect(await svc.currentJob(courier)).toEqual({
      kind: 'job',
      order_id: id,
      stage: 'picked_up',
    });
    expect((await svc.arrived(courier, id)).stage).toBe('at_dropoff');

    expect(await svc.couldNotDeliver(courier, id, 'refused')).toMatchObject({
      stage: 'returning',
      status: 'returning',
    });
    expect(await row(id)).toMatchObject({
      status: 'returning',
      delivery_attempts: 2,
      failure_reason: 'refused',
      failure_note: null,
    });
    expect(await codeOf(svc.delivered(courier, id))).toBe('INVALID_TRANSITION');
    expect(await codeOf(svc.couldNotDeliver(courier, id, 'refused'))).toBe('INVALID_TRANSITION');
    expect(await svc.currentJob(courier)).toEqual({
      kind: 'job',
      order_id: id,
      stage: 'returning',
    });
    expect(await jobState(id)).toBe('assigned');

    expect(await svc.returned(courier, id)).toMatchObject({
      action: 'returned',
      stage: 'returned',
      status: 'returned',
    });
    expect(await assignment(id)).toMatchObject({
      stage: 'returned',
      ended_at: expect.any(Date),
      end_reason: 'finished',
    });
    expect(await jobState(id)).toBe('closed');
    expect(await svc.currentJob(courier)).toBeUndefined();

    const events = await outbox(id);
    expect(
      events.slice(-3).map((e) => [e.type, e.payload.data.previous_status, e.payload.data.status]),
    ).toEqual([
      ['delivery.order.status_changed', 'in_transit', 'in_transit'],
      ['delivery.order.returning', 'in_transit', 'returning'],
      ['delivery.order.returned', 'returning', 'returned'],
    ]);
    expect(events.at(-2).payload.data).toMatchObject({
      failure_reason: 'refused',
      delivery_attempts: 2,
    });
    const history = await p.app.platform.delivery!.orders.history(id);
    expect(history.slice(-3).map((h: any) => [h.status, h.note])).toEqual([
      ['in_transit', 'Nobody at the gate'],
      ['returning', null],
      ['returned', 'Returned to the pickup by the courier'],
    ]);
  });

  it('refuses a wrong reason, other without a note and a bad note with 400, and nothing changes', async () => {
    const { id, courier } = await atDropoff();
    const before = [await row(id), await assignment(id)];
    const cases: Array<[unknown, unknown, string]> = [
      ['lost', undefined, 'reason'],
      [undefined, undefined, 'reason'],
      ['Nobody at the address', undefined, 'reason'],
      ['other', undefined, 'note'],
      ['other', '   ', 'note'],
      ['refused', 'bad\u0000note', 'note'],
      ['refused', 'x'.repeat(501), 'note'],
      ['refused', 42, 'note'],
    ];
    for (const [reason, note, field] of cases) {
      try {
        await svc.couldNotDeliver(courier, id, reason, note);
        expect.unreachable(`${String(reason)} ${String(note)} was accepted`);
      } catch (err: any) {
        expect(
          [err.statusCode, err.code, err.details?.[0]?.field],
          `${String(reason)} ${String(note).slice(0, 20)}`,
        ).toEqual([400, 'VALIDATION_ERROR', field]);
      }
    }
    expect([await row(id), await assignment(id)]).toEqual(before);
    expect(await refusal(svc.returned(courier, id))).toEqual([409, 'INVALID_TRANSITION']);
    // Nothing was used up by the refusals: the good reason goes through.
    expect(await svc.couldNotDeliver(courier, id, 'other', 'Gate locked, phone off')).toMatchObject(
      { status: 'in_transit' },
    );
    expect(await row(id)).toMatchObject({
      failure_reason: 'other',
      failure_note: 'Gate locked, phone off',
    });
  });

  it('applies a could-not-deliver sent twice at once from the courier app once, and a replayed return once', async () => {
    const { id, courier } = await atDropoff();
    const actions = p.app.platform.courierActions;
    const action = (kind: string, payload: Record<string, unknown> = {}) => ({
      id: randomUUID(),
      kind,
      at: new Date(),
      payload: { order_id: id, ...payload },
    });
    const failed = action('could_not_deliver', { reason: 'wrong_address' });
    const answers = await Promise.all([0, 1].map(() => actions.apply(courier, failed)));
    expect(answers.map((a) => a.result).sort()).toEqual(['already_applied', 'applied']);
    for (const a of answers) expect(a).toMatchObject({ stage: 'picked_up', status: 'in_transit' });
    expect(await actions.apply(courier, failed)).toEqual({
      id: failed.id,
      result: 'already_applied',
      stage: 'picked_up',
      status: 'in_transit',
    });
    expect(await row(id)).toMatchObject({ delivery_attempts: 2, version: 5 });
    expect(
      (await outbox(id)).filter((e) => e.payload.data.previous_status === 'in_transit'),
    ).toHaveLength(1);
    // The same id for another action is refused, and changes nothing.
    expect(await actions.apply(courier, { ...failed, kind: 'returned' })).toEqual({
      id: failed.id,
      result: 'refused',
      reason: 'This action id was already used for "could_not_deliver".',
    });

    await svc.arrived(courier, id);
    await svc.couldNotDeliver(courier, id, 'wrong_address');
    const ret = action('returned');
    expect(await actions.apply(courier, ret)).toMatchObject({
      result: 'applied',
      status: 'returned',
    });
    expect(await actions.apply(courier, ret)).toMatchObject({
      result: 'already_applied',
      status: 'returned',
    });
    expect((await outbox(id)).filter((e) => e.type === 'delivery.order.returned')).toHaveLength(1);
  });

  it('lets no other courier act on the job, before or during the return', async () => {
    const { id, courier } = await atDropoff();
    const other = (await courierNear(p, 2, Date.now())).id;
    expect(await refusal(svc.couldNotDeliver(other, id, 'refused'))).toEqual([403, 'NOT_YOUR_JOB']);
    await svc.couldNotDeliver(courier, id, 'refused');
    await svc.couldNotDeliver(courier, id, 'refused');
    expect(await refusal(svc.returned(other, id))).toEqual([403, 'NOT_YOUR_JOB']);
    expect(await row(id)).toMatchObject({ status: 'returning' });
    expect(await assignment(id)).toMatchObject({
      courier_id: courier,
      stage: 'returning',
      ended_at: null,
    });
  });

  it("puts the courier's job on the return when an operator starts it", async () => {
    const { id, courier } = await atDropoff();
    expect(
      (
        await p.admin('POST', `/delivery/orders/${id}/status`, {
          status: 'returning',
          failure_reason: 'refused',
        })
      ).status,
    ).toBe(200);
    expect(await svc.currentJob(courier)).toEqual({
      kind: 'job',
      order_id: id,
      stage: 'returning',
    });
    expect(await svc.returned(courier, id)).toMatchObject({ status: 'returned' });
    expect(await jobState(id)).toBe('closed');
  });
});

describe('the return fee of a wallet-funded order returned by its courier', () => {
  it('keeps the delivery fee and charges the return fee once, with no refund', async () => {
    const w = await walletPartner(p);
    await topUp(w, 100);
    const body = orderBody({ payment: { payer: 'partner' } });
    body.pickup.coordinates = ACCRA_CENTRAL;
    body.delivery.coordinates = EAST_LEGON;
    const created = await w.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, courier } = await atDropoff(created.body.data.order_details.order_id);
    const fee = (
      await w.client.send<any>('POST', '/api/v1/delivery/orders.get', { body: { order_id: id } })
    ).body.data.order_info.amount as number;
    const returnFee = Math.round(fee * 50) / 100;

    await svc.couldNotDeliver(courier, id, 'recipient_absent');
    await svc.couldNotDeliver(courier, id, 'recipient_absent');
    expect(await balance(w)).toBeCloseTo(100 - fee, 2);
    await svc.returned(courier, id);
    expect(await codeOf(svc.returned(courier, id))).toBe('NOT_YOUR_JOB');

    const journals = await db().query<any>(
      'select kind from ledger_journals where subject_id = $1 order by created_at',
      [id],
    );
    expect(journals.map((j) => j.kind)).toEqual(['order_fee', 'order_return_fee']);
    expect(await row(id)).toMatchObject({
      status: 'returned',
      return_fee_pesewas: Math.round(returnFee * 100),
    });
    await p.app.platform.delivery!.refunds.tick();
    expect(await balance(w)).toBeCloseTo(100 - fee - returnFee, 2);
    await expectLedgerConsistent(p);
  });
});
