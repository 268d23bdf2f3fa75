import { describe, expect, it } from 'vitest';
import { courierNearTextsRecipient } from '../../../src/flows/courier-near-texts-recipient.ts';
import { as, hooks } from '../faces.ts';

const NOW = Date.parse('2026-11-29T10:00:00Z');
const DROPOFF = { lat: 5.6037, lng: -0.187 };

function wired(
  opts: { stage?: string; already?: boolean; position?: { lat: number; lng: number } } = {},
) {
  const h = hooks();
  const recorded: unknown[] = [];
  courierNearTextsRecipient.wire(
    as({
      db: { transaction: async (fn: (tx: unknown) => Promise<unknown>) => fn('tx') },
      clock: () => NOW,
      couriers: { onPosition: h.add('onPosition'), get: async () => ({ name: 'Ama Owusu' }) },
      dispatch: {
        service: {
          currentJob: async () => ({
            kind: 'job',
            order_id: 'ord_1',
            stage: opts.stage ?? 'picked_up',
          }),
        },
        trail: {
          forOrder: async () => ({
            next_stop: 'dropoff',
            position: opts.position ?? { lat: DROPOFF.lat + 0.002, lng: DROPOFF.lng },
            eta: new Date(NOW + 10 * 60_000).toISOString(),
          }),
        },
      },
      delivery: {
        orders: {
          jobSheet: async () => ({ delivery_lat: DROPOFF.lat, delivery_lng: DROPOFF.lng }),
          find: async () => ({ id: 'ord_1', environment: 'production' }),
        },
      },
      messages: {
        service: {
          recorded: async () => opts.already ?? false,
          record: async (tx: unknown, t: { kind: string; courierName: string }) =>
            void recorded.push([tx, t.kind, t.courierName]),
        },
      },
    }),
  );
  const report = () => (h.on('onPosition')[0] as (id: string) => Promise<void>)('cou_1');
  return { recorded, report };
}

describe('a courier near the drop-off texts the recipient', () => {
  it('records the message in a transaction of its own, with the courier', async () => {
    const { recorded, report } = wired();
    await report();
    expect(recorded).toEqual([['tx', 'courier_near', 'Ama Owusu']]);
  });

  it('records nothing before the pickup, when already recorded, or while far', async () => {
    for (const opts of [
      { stage: 'accepted' },
      { already: true },
      { position: { lat: DROPOFF.lat + 0.05, lng: DROPOFF.lng } },
    ]) {
      const { recorded, report } = wired(opts);
      await report();
      expect(recorded, JSON.stringify(opts)).toEqual([]);
    }
  });
});
