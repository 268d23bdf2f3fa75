import { describe, expect, it } from 'vitest';
import { deliveryEarnsCourierPay } from '../../../src/flows/delivery-earns-courier-pay.ts';
import { as, hooks, TX } from '../faces.ts';

type Move = (tx: unknown, order: unknown, from: string) => Promise<void>;

function wired(
  opts: { nets?: boolean; amount?: number; booked?: boolean; carrier?: boolean } = {},
) {
  const h = hooks();
  const seen: unknown[] = [];
  deliveryEarnsCourierPay.wire(
    as({
      delivery: {
        orders: { onMove: h.add('onMove'), roadKm: async () => 4.2 },
      },
      dispatch: {
        service: {
          carrierOf: async () =>
            opts.carrier === false ? undefined : { courierId: 'cou_1', zone: 'greater-accra' },
        },
      },
      couriers: { get: async () => ({ vehicle: 'car' }) },
      earnings: {
        book: async (tx: unknown, job: unknown) => {
          seen.push(['book', tx, job]);
          return opts.booked === false
            ? undefined
            : { id: 'cpe_1', amount_pesewas: opts.amount ?? 900, earned_at: new Date(0) };
        },
        netsCodCash: async () => opts.nets ?? false,
        recordNetted: async (_tx: unknown, id: string, n: number) =>
          void seen.push(['netted', id, n]),
      },
      cash: {
        netAgainstEarning: async (_tx: unknown, e: unknown) => {
          seen.push(['net', e]);
          return 300;
        },
      },
    }),
  );
  return { move: h.on('onMove')[0] as Move, seen };
}

const order = (status: string, attempts = 1, environment = 'production') => ({
  id: 'dlv_1',
  status,
  delivery_attempts: attempts,
  environment,
});

describe("a courier's delivery or failed attempt earns their pay", () => {
  it('books a delivered production order for its carrier, in the move transaction', async () => {
    const { move, seen } = wired();
    await move(TX, order('delivered'), 'in_transit');
    expect(seen).toEqual([
      [
        'book',
        TX,
        {
          orderId: 'dlv_1',
          courierId: 'cou_1',
          occasion: 'delivered',
          zone: 'greater-accra',
          vehicle: 'car',
          roadKm: 4.2,
        },
      ],
    ]);
  });

  it('books each failed trip by its number: going out again, then the return', async () => {
    const { move, seen } = wired();
    await move(TX, order('in_transit', 2), 'in_transit');
    await move(TX, order('returning', 2), 'in_transit');
    expect(seen.map((s) => (s as [string, unknown, { occasion: string }])[2].occasion)).toEqual([
      'failed_attempt:1',
      'failed_attempt:2',
    ]);
  });

  it('books nothing for other moves, staging orders or an order no courier carried', async () => {
    const { move, seen } = wired();
    await move(TX, order('in_transit', 1), 'pickedUp');
    await move(TX, order('delivered', 1, 'staging'), 'in_transit');
    await wired({ carrier: false }).move(TX, order('delivered'), 'in_transit');
    expect(seen).toEqual([]);
  });

  it('sets cash held against the earning only where the policy says so', async () => {
    const off = wired();
    await off.move(TX, order('delivered'), 'in_transit');
    expect(off.seen.filter((s) => (s as string[])[0] !== 'book')).toEqual([]);
    const on = wired({ nets: true });
    await on.move(TX, order('delivered'), 'in_transit');
    expect(on.seen.slice(1)).toEqual([
      ['net', { id: 'cpe_1', courierId: 'cou_1', amountPesewas: 900 }],
      ['netted', 'cpe_1', 300],
    ]);
    const again = wired({ nets: true, booked: false });
    await again.move(TX, order('delivered'), 'in_transit');
    expect(again.seen).toHaveLength(1);
  });

  it('listens to nothing without delivery or dispatch here', () => {
    const h = hooks();
    deliveryEarnsCourierPay.wire(
      as({ delivery: { orders: { onMove: h.add('onMove') } }, dispatch: undefined }),
    );
    expect(h.registered.size).toBe(0);
  });
});
