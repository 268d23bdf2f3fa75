import { describe, expect, it } from 'vitest';
import { assignmentTextsDeliveryCode } from '../../../src/flows/assignment-texts-delivery-code.ts';
import { as, hooks, TX } from '../faces.ts';

type Assign = (
  tx: unknown,
  job: { orderId: string; courierId: string },
) => Promise<(() => Promise<void>) | undefined>;

function wired(opts: { environment?: string; sandbox?: boolean; recorded?: string[] } = {}) {
  const h = hooks();
  const recorded: unknown[] = [];
  const sent: unknown[] = [];
  const order = { id: 'ord_1', environment: opts.environment ?? 'production' };
  assignmentTextsDeliveryCode.wire(
    as({
      dispatch: {
        service: { onAssign: h.add('onAssign') },
      },
      delivery: { orders: { find: async () => order } },
      couriers: { get: async () => ({ name: 'Kofi Boateng', simulated: opts.sandbox ?? false }) },
      proofs: { issueCode: async () => ({ code: '2468' }) },
      messages: {
        service: {
          record: async (tx: unknown, trigger: unknown) => {
            recorded.push([tx, trigger]);
            return opts.recorded ?? ['rmsg_1'];
          },
        },
        sender: { sendDue: async (ids: string[]) => void sent.push(ids) },
      },
    }),
  );
  const assign = () =>
    (h.on('onAssign')[0] as Assign)(TX, { orderId: 'ord_1', courierId: 'cou_1' });
  return { recorded, sent, assign };
}

describe("an assignment texts the recipient's delivery code", () => {
  it('records the message with the code and the courier in the transaction, and sends it after the commit', async () => {
    const { recorded, sent, assign } = wired();
    const later = await assign();
    expect(recorded).toEqual([
      [
        TX,
        {
          order: expect.objectContaining({ id: 'ord_1' }),
          kind: 'assigned',
          code: '2468',
          courierName: 'Kofi Boateng',
          sendAfterCommit: true,
        },
      ],
    ]);
    expect(sent).toEqual([]);
    await later!();
    expect(sent).toEqual([['rmsg_1']]);
  });

  it('leaves nothing to send when nothing was recorded (the app turned it off, or the number said STOP)', async () => {
    expect(await wired({ recorded: [] }).assign()).toBeUndefined();
  });

  it("records nothing for a staging order, nor for the sandbox courier's jobs", async () => {
    const staging = wired({ environment: 'staging' });
    expect(await staging.assign()).toBeUndefined();
    const sandbox = wired({ sandbox: true });
    expect(await sandbox.assign()).toBeUndefined();
    expect([...staging.recorded, ...sandbox.recorded]).toEqual([]);
  });
});
