import { describe, expect, it } from 'vitest';
import { heldSubjects } from '../../../src/flows/unconfirmed-delivery-holds-payout.ts';
import { as, TX } from '../faces.ts';

describe("an unconfirmed delivery holds its sale's payout", () => {
  it("names the sales whose delivery still waits for its recipient, read in the run's transaction", async () => {
    const asked: unknown[][] = [];
    const port = heldSubjects(
      as({
        catalog: {
          operatorSales: {
            deliveryOrdersOf: async (q: unknown, sales: string[]) => {
              asked.push(['sales', q === TX, sales]);
              return new Map([
                ['sale_1', 'dlv_1'],
                ['sale_2', 'dlv_2'],
              ]);
            },
          },
        },
        proofConfirmations: {
          waitingAmong: async (q: unknown, orders: string[]) => {
            asked.push(['orders', q === TX, orders]);
            return ['dlv_2'];
          },
        },
      }),
    );
    expect([...(await port(TX, ['sale_1', 'sale_2', 'pout_9']))]).toEqual(['sale_2']);
    // Only sale subjects are looked up; none at all asks nothing.
    expect(asked).toEqual([
      ['sales', true, ['sale_1', 'sale_2']],
      ['orders', true, ['dlv_1', 'dlv_2']],
    ]);
    expect([...(await port(TX, ['pout_9']))]).toEqual([]);
    expect(asked).toHaveLength(2);
  });

  it("holds a courier's earnings for a delivery still waiting for its recipient", async () => {
    const port = heldSubjects(
      as({
        catalog: undefined,
        earnings: {
          ordersOf: async (q: unknown, ids: string[]) => {
            expect([q, ids]).toEqual([TX, ['cpe_1', 'cpe_2']]);
            return new Map([
              ['cpe_1', 'dlv_1'],
              ['cpe_2', 'dlv_2'],
            ]);
          },
        },
        proofConfirmations: { waitingAmong: async () => ['dlv_1'] },
      }),
    );
    expect([...(await port(TX, ['cpe_1', 'cpe_2', 'sale_1']))]).toEqual(['cpe_1']);
  });

  it('holds nothing without a catalog here', async () => {
    const port = heldSubjects(as({ catalog: undefined, proofConfirmations: {} }));
    expect([...(await port(TX, ['sale_1']))]).toEqual([]);
  });
});
