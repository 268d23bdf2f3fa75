import { describe, expect, it } from 'vitest';
import { cashDue } from '../../../src/flows/cash-due-at-the-door.ts';
import { as, TX } from '../faces.ts';

const order = (environment: string) => ({
  id: 'ord_1',
  environment,
  payer: 'recipient',
  payment_status: 'pending',
  fee_pesewas: 1500,
});

describe('the cash due at the door', () => {
  const faces = (environment: string, codPesewas?: number) => ({
    delivery: { orders: { find: async () => order(environment) } },
    catalog: {
      sales: {
        cashOnDelivery: async () => (codPesewas === undefined ? undefined : { codPesewas }),
      },
    },
  });

  it("is a cod sale's total, read from the catalog in the delivered action's transaction", async () => {
    expect(await cashDue(as(faces('production', 12_000)))(TX, 'ord_1')).toEqual({
      feePesewas: 0,
      codPesewas: 12_000,
    });
  });

  it("is the unpaid fee of a recipient-paid order that is no sale's", async () => {
    expect(await cashDue(as(faces('production')))(TX, 'ord_1')).toEqual({
      feePesewas: 1500,
      codPesewas: 0,
    });
    expect(await cashDue(as({ ...faces('production'), catalog: undefined }))(TX, 'ord_1')).toEqual({
      feePesewas: 1500,
      codPesewas: 0,
    });
  });

  it('is nothing for a staging order: test orders never reach the books', async () => {
    expect(await cashDue(as(faces('staging', 12_000)))(TX, 'ord_1')).toEqual({
      feePesewas: 0,
      codPesewas: 0,
    });
  });
});
