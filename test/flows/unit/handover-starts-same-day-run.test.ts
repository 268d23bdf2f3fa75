import { describe, expect, it } from 'vitest';
import {
  codVendorsOf,
  handoverStartsSameDayRun,
} from '../../../src/flows/handover-starts-same-day-run.ts';
import { as, hooks, TX } from '../faces.ts';

describe('a cash handover starts a same-day run', () => {
  it("writes the run's request in the handover's transaction, naming the handover and the courier", async () => {
    const h = hooks();
    const requests: unknown[] = [];
    handoverStartsSameDayRun.wire(
      as({
        cash: { onHandover: h.add('onHandover') },
        payouts: {
          runRequests: { request: async (tx: unknown, r: unknown) => void requests.push([tx, r]) },
        },
      }),
    );
    const at = new Date('2026-03-02T10:00:00Z');
    await (h.on('onHandover')[0] as (tx: unknown, h: unknown) => Promise<void>)(TX, {
      id: 'hnd_1',
      courier_id: 'cou_1',
      created_at: at,
    });
    expect(requests).toEqual([[TX, { handoverId: 'hnd_1', courierId: 'cou_1', handedOverAt: at }]]);
  });

  it('names the cod vendors of the handed-over orders through the catalog, none without one', async () => {
    const ctx: { catalog: unknown } = { catalog: undefined };
    const port = codVendorsOf(as(ctx));
    expect(await port(['ord_1'])).toEqual([]);
    ctx.catalog = {
      operatorSales: { codVendorsOf: async (orders: string[]) => orders.map((o) => `ven_of_${o}`) },
    };
    expect(await port(['ord_1'])).toEqual(['ven_of_ord_1']);
  });
});
