import { describe, expect, it } from 'vitest';
import {
  cashCollectedJournal,
  cashDue,
  cashHandoverJournal,
  cashNettedJournal,
} from './journals.ts';

const sum = (j: { entries: Array<{ amountPesewas: number }> }) =>
  j.entries.reduce((n, e) => n + e.amountPesewas, 0);

describe('courier cash journals', () => {
  it('debits the courier with the fee and the cod total, crediting revenue and the riders clearing', () => {
    const j = cashCollectedJournal('dlv_1', 'cou_1', { feePesewas: 1500, codPesewas: 10000 });
    expect(j).toMatchObject({ kind: 'courier_cash_collected', subjectId: 'dlv_1' });
    expect(j.entries).toEqual([
      { account: 'courier_cash:cou_1', amountPesewas: -11500 },
      { account: 'rider_cash_clearing', amountPesewas: 10000 },
      { account: 'delivery_revenue', amountPesewas: 1500 },
    ]);
    expect(sum(j)).toBe(0);
  });

  it('leaves out a zero part and refuses nothing to collect', () => {
    expect(
      cashCollectedJournal('dlv_2', 'cou_1', { feePesewas: 900, codPesewas: 0 }).entries,
    ).toHaveLength(2);
    expect(() => cashCollectedJournal('dlv_3', 'cou_1', { feePesewas: 0, codPesewas: 0 })).toThrow(
      /positive/,
    );
  });

  it('moves a handover from the courier to the platform cash, balanced', () => {
    const j = cashHandoverJournal('cho_1', 'cou_1', 700);
    expect(j.entries).toEqual([
      { account: 'platform_cash', amountPesewas: -700 },
      { account: 'courier_cash:cou_1', amountPesewas: 700 },
    ]);
    expect(sum(j)).toBe(0);
    expect(() => cashHandoverJournal('cho_2', 'cou_1', 0)).toThrow();
  });
});

describe('cash due at the door', () => {
  const order = { payer: 'recipient', payment_status: 'pending', fee_pesewas: 1500 };
  it('is the cod total for a sale (its fee inside), nothing for a prepaid sale, else an unpaid recipient fee', () => {
    expect(cashDue(order, { codPesewas: 9000 })).toEqual({ feePesewas: 0, codPesewas: 9000 });
    expect(cashDue(order, { codPesewas: 0 })).toEqual({ feePesewas: 0, codPesewas: 0 });
    expect(cashDue(order, undefined)).toEqual({ feePesewas: 1500, codPesewas: 0 });
    expect(
      cashDue({ ...order, payer: 'partner', payment_status: 'wallet_debited' }, undefined),
    ).toEqual({ feePesewas: 0, codPesewas: 0 });
    expect(cashDue(undefined, undefined)).toEqual({ feePesewas: 0, codPesewas: 0 });
  });

  it('sets cash held against pay: the payable and the cash account both come down, balanced', () => {
    const j = cashNettedJournal('cpe_1', 'cou_1', 700);
    expect(j).toMatchObject({ kind: 'courier_cash_netted', subjectId: 'cpe_1' });
    expect(j.entries).toEqual([
      { account: 'courier_payable:cou_1', amountPesewas: -700 },
      { account: 'courier_cash:cou_1', amountPesewas: 700 },
    ]);
    expect(sum(j)).toBe(0);
    expect(() => cashNettedJournal('cpe_1', 'cou_1', 0)).toThrow();
  });
});
