import { describe, expect, it } from 'vitest';
import { orderMoveTextsRecipient } from '../../../src/flows/order-move-texts-recipient.ts';
import { as, hooks, TX } from '../faces.ts';

type Move = (tx: unknown, order: unknown, from: string) => Promise<void>;

function wired(opts: { sandbox?: boolean } = {}) {
  const h = hooks();
  const recorded: unknown[] = [];
  orderMoveTextsRecipient.wire(
    as({
      delivery: { orders: { onMove: h.add('onMove') } },
      dispatch: {
        service: { carrierOf: async () => ({ courierId: 'cou_1', zone: null }) },
      },
      couriers: { get: async () => ({ simulated: opts.sandbox ?? false }) },
      messages: {
        service: {
          record: async (_tx: unknown, t: { kind: string; occasion: number }) =>
            void recorded.push([t.kind, t.occasion]),
        },
      },
    }),
  );
  const move = (status: string, from: string, environment = 'production') =>
    (h.on('onMove')[0] as Move)(TX, { id: 'ord_1', status, environment, version: 7 }, from);
  return { recorded, move };
}

describe('a delivered or failed order texts its recipient', () => {
  it('records delivered once, and a failure per attempt (keyed by the version)', async () => {
    const { recorded, move } = wired();
    await move('delivered', 'in_transit');
    await move('in_transit', 'in_transit');
    await move('returning', 'in_transit');
    await move('failed', 'accepted');
    expect(recorded).toEqual([
      ['delivered', 0],
      ['delivery_failed', 7],
      ['delivery_failed', 7],
      ['delivery_failed', 7],
    ]);
  });

  it("records nothing for other moves, staging orders or the sandbox courier's jobs", async () => {
    const { recorded, move } = wired();
    await move('pickedUp', 'accepted');
    await move('in_transit', 'pickedUp');
    await move('cancelled', 'placed');
    await move('delivered', 'in_transit', 'staging');
    const sandbox = wired({ sandbox: true });
    await sandbox.move('delivered', 'in_transit');
    expect([...recorded, ...sandbox.recorded]).toEqual([]);
  });
});
