import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertBalanced, UnbalancedJournalError } from '../ledger/index.ts';
import {
  orderFeeJournal,
  orderFeeRefundJournal,
  orderReturnFeeJournal,
  topupJournal,
} from './journals.ts';

const sum = (j: { entries: { amountPesewas: number }[] }) =>
  j.entries.reduce((s, e) => s + e.amountPesewas, 0);

describe('ledger journals', () => {
  it('always balance, for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), (amount) => {
        for (const j of [
          topupJournal('ptn_1', 'top_1', 'sandbox', amount),
          orderFeeJournal('ptn_1', 'dlv_1', amount),
          orderFeeRefundJournal('ptn_1', 'dlv_1', amount),
          orderReturnFeeJournal('ptn_1', 'dlv_1', amount),
        ]) {
          expect(sum(j)).toBe(0);
        }
      }),
    );
  });

  it('move the wallet the right way', () => {
    expect(topupJournal('ptn_1', 'top_1', 'sandbox', 5000).entries[0]).toEqual({
      account: 'wallet:ptn_1',
      amountPesewas: 5000,
      walletOf: 'ptn_1',
    });
    expect(orderFeeJournal('ptn_1', 'dlv_1', 4500).entries[0]!.amountPesewas).toBe(-4500);
    expect(orderFeeRefundJournal('ptn_1', 'dlv_1', 4500).entries[0]!.amountPesewas).toBe(4500);
    expect(orderReturnFeeJournal('ptn_1', 'dlv_1', 2250)).toMatchObject({
      kind: 'order_return_fee',
      subjectId: 'dlv_1',
      entries: [
        { account: 'wallet:ptn_1', amountPesewas: -2250 },
        { account: 'delivery_revenue', amountPesewas: 2250 },
      ],
    });
  });

  it('refuse unbalanced, fractional, zero or one-sided journals', () => {
    const base = { kind: 'order_fee' as const, subjectId: 's', memo: '' };
    expect(() =>
      assertBalanced({
        ...base,
        entries: [
          { account: 'a', amountPesewas: 5 },
          { account: 'b', amountPesewas: -4 },
        ],
      }),
    ).toThrow(UnbalancedJournalError);
    expect(() =>
      assertBalanced({
        ...base,
        entries: [
          { account: 'a', amountPesewas: 0.5 },
          { account: 'b', amountPesewas: -0.5 },
        ],
      }),
    ).toThrow(UnbalancedJournalError);
    expect(() =>
      assertBalanced({ ...base, entries: [{ account: 'a', amountPesewas: 5 }] }),
    ).toThrow(UnbalancedJournalError);
    expect(() =>
      assertBalanced({
        ...base,
        entries: [
          { account: 'a', amountPesewas: 5 },
          { account: 'a', amountPesewas: -5 },
        ],
      }),
    ).toThrow(UnbalancedJournalError);
    expect(() => topupJournal('p', 't', 'g', 0)).toThrow(UnbalancedJournalError);
    expect(() => orderFeeJournal('p', 'o', -1)).toThrow(UnbalancedJournalError);
    expect(() => orderReturnFeeJournal('p', 'o', 0)).toThrow(UnbalancedJournalError);
  });
});
