import { describe, expect, it } from 'vitest';
import { courierNearTextsRecipient } from '../../../src/flows/courier-near-texts-recipient.ts';
import { as, hooks } from '../faces.ts';

const NOW = Date.parse('2026-11-29T10:00:00Z');
const DROPOFF = { lat: 5.6037, lng: -0.187 };

function wired(
  opts: {
    stage?: string;
    already?: boolean;
    position?: { lat: number; lng: number };
    environment?: string;
  } = {},
) {
  const h = hooks();
  const recorded: unknown[] = [];
  const looked: string[] = [];
  courierNearTextsRecipient.wire(
    as({
      db: { transaction: async (fn: (tx: unknown) => Promise<unknown>) => fn('tx') },
      clock: () => NOW,
      dispatch: { trail: { onProgress: h.add('onProgress') } },
      messages: {
        service: {
          recorded: async (orderId: string) => {
            looked.push(orderId);
            return opts.already ?? false;
          },
          record: async (tx: unknown, t: { kind: string; courierName: string }) =>
            void recorded.push([tx, t.kind, t.courierName]),
        },
      },
    }),
  );
  const report = () =>
    (h.on('onProgress')[0] as (drop: unknown) => Promise<void>)({
      order: { id: 'ord_1', environment: opts.environment ?? 'production' },
      stage: opts.stage ?? 'picked_up',
      dropoff: DROPOFF,
      courierName: 'Ama Owusu',
      progress: {
        next_stop: 'dropoff',
        position: opts.position ?? { lat: DROPOFF.lat + 0.002, lng: DROPOFF.lng },
        eta: new Date(NOW + 10 * 60_000).toISOString(),
        updated_at: new Date(NOW).toISOString(),
      },
    });
  return { recorded, looked, report };
}

describe('a courier near the drop-off texts the recipient', () => {
  it('records the message in a transaction of its own, with the courier', async () => {
    const { recorded, report } = wired();
    await report();
    expect(recorded).toEqual([['tx', 'courier_near', 'Ama Owusu']]);
  });

  it('records nothing before the pickup, when already recorded, while far, or in the sandbox', async () => {
    for (const opts of [
      { stage: 'accepted' },
      { already: true },
      { position: { lat: DROPOFF.lat + 0.05, lng: DROPOFF.lng } },
      { environment: 'sandbox' },
    ]) {
      const { recorded, report } = wired(opts);
      await report();
      expect(recorded, JSON.stringify(opts)).toEqual([]);
    }
  });

  it('looks whether the message was recorded only for a courier near a production drop-off', async () => {
    for (const opts of [
      { stage: 'accepted' },
      { position: { lat: DROPOFF.lat + 0.05, lng: DROPOFF.lng } },
      { environment: 'sandbox' },
    ]) {
      const { looked, report } = wired(opts);
      await report();
      expect(looked, JSON.stringify(opts)).toEqual([]);
    }
    const { looked, report } = wired({ already: true });
    await report();
    expect(looked).toEqual(['ord_1']);
  });
});
