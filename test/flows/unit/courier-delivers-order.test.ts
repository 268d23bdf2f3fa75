import { describe, expect, it } from 'vitest';
import {
  courierDeliversOrder,
  courierProofUpload,
} from '../../../src/flows/courier-delivers-order.ts';
import { as, hooks, TX } from '../faces.ts';

type Handler = (input: {
  courierId: string;
  actionId: string;
  at: Date;
  payload: Record<string, unknown>;
  afterCommit: (work: () => Promise<void>) => void;
}) => Promise<unknown>;
const afterCommit = () => undefined;
const AT = new Date('2026-03-02T10:00:00Z');
type Check = (tx: unknown, job: { orderId: string; courierId: string }) => Promise<void>;

/** A courier holding ord_1, a proof module that knows which orders are proven, a cash module that records collections. */
function wired(opts: { proven?: boolean; cash?: boolean } = {}) {
  const h = hooks();
  const log: unknown[][] = [];
  let proven = opts.proven ?? false;
  const proofs = {
    verifyCode: async (orderId: string, code: string, courierId: string) => {
      log.push(['verifyCode', orderId, code, courierId]);
      proven = true;
    },
    isProven: async () => proven,
    provenBy: async () => (proven ? 'code' : undefined),
    issueCode: async () => ({ code: '4321' }),
    recordMedia: async (input: { orderId: string; courierId: string }) => {
      log.push(['recordMedia', input.orderId, input.courierId]);
      return { id: 'prf_1', kind: 'photo' };
    },
  };
  const service = {
    holds: async (courierId: string, orderId: string) =>
      courierId === 'cou_1' && orderId === 'ord_1',
    delivered: async (...args: unknown[]) => {
      log.push(['delivered', ...args]);
      return { stage: 'delivered', status: 'delivered' };
    },
    onDeliver: h.add('onDeliver'),
  };
  const collect = async () => void log.push(['collect']);
  courierDeliversOrder.wire(
    as({
      courierActions: { register: h.add('register') },
      dispatch: { service, sandbox: { proveWith: h.add('proveWith') } },
      proofs,
      cash: opts.cash === false ? undefined : { collect },
    }),
  );
  const deliver = (payload: Record<string, unknown>, courierId = 'cou_1') =>
    (h.on('register:delivered')[0] as Handler)({
      courierId,
      actionId: 'act_9',
      at: AT,
      payload,
      afterCommit,
    });
  return { h, log, deliver, collect, proofs, service };
}

describe('a courier delivers an order', () => {
  it('checks the code, then has dispatch deliver with the cash the courier says they took', async () => {
    const { log, deliver } = wired();
    expect(
      await deliver({ order_id: 'ord_1', code: '1234', cash_collected_pesewas: 12_000 }),
    ).toEqual({ stage: 'delivered', status: 'delivered' });
    expect(log).toEqual([
      ['verifyCode', 'ord_1', '1234', 'cou_1'],
      ['delivered', 'cou_1', 'ord_1', { cashCollectedPesewas: 12_000, at: AT }, { afterCommit }],
    ]);
  });

  it("lets only the job's courier try a code, and refuses a code or cash of the wrong type", async () => {
    const { log, deliver } = wired();
    await expect(deliver({ order_id: 'ord_1', code: '1234' }, 'cou_2')).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(deliver({ order_id: 'ord_1', code: 1234 })).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(
      deliver({ order_id: 'ord_1', cash_collected_pesewas: '120' }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(log).toEqual([]);
  });

  it("in dispatch's transaction, needs a proof first, then collects the cash", async () => {
    const { h, log, collect } = wired();
    const [proofCheck, cashCheck] = h.on('onDeliver') as Check[];
    expect(cashCheck).toBe(collect);
    await expect(proofCheck!(TX, { orderId: 'ord_1', courierId: 'cou_1' })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('delivery code'),
    });
    const proven = wired({ proven: true });
    await (proven.h.on('onDeliver')[0] as Check)(TX, { orderId: 'ord_1', courierId: 'cou_1' });
    expect(log).toEqual([]);
  });

  it('collects no cash where no cash module is composed', () => {
    expect(wired({ cash: false }).h.on('onDeliver')).toHaveLength(1);
  });

  it("proves the sandbox courier's deliveries with a fresh code, entered like a courier's", async () => {
    const { h, log } = wired();
    await (h.on('proveWith')[0] as (orderId: string, courierId: string) => Promise<void>)(
      'ord_1',
      'cou_sandbox',
    );
    expect(log).toEqual([['verifyCode', 'ord_1', '4321', 'cou_sandbox']]);
  });

  it("takes a proof upload only from the job's courier", async () => {
    const { log, proofs, service } = wired();
    const upload = courierProofUpload(as(service), as(proofs));
    expect(await upload('cou_1', as({ orderId: 'ord_1', kind: 'photo' }))).toEqual({
      id: 'prf_1',
      kind: 'photo',
    });
    await expect(upload('cou_2', as({ orderId: 'ord_1', kind: 'photo' }))).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(log).toEqual([['recordMedia', 'ord_1', 'cou_1']]);
  });
});
