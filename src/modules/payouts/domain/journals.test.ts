import { describe, expect, it } from 'vitest';
import {
  payeeAccounts,
  payoutCreatedJournal,
  payoutFeeJournal,
  payoutFeeRecoveredJournal,
  payoutPaidJournal,
  payoutReturnedJournal,
  splitOf,
} from './journals.ts';

const plain = {
  payable: 'vendor_payable:ven_1',
  fromPayable: 500,
  receivable: 'vendor_receivable:ven_1',
  deducted: 0,
  fee: 0,
};

const legs = (j: { entries: Array<{ account: string; amountPesewas: number }> }) =>
  Object.fromEntries(j.entries.map((e) => [e.account, e.amountPesewas]));

describe('payout journals', () => {
  it('move the payable to transit, transit to the provider, fees apart, and failures and reversals back', () => {
    expect(legs(payoutCreatedJournal('pout_1', plain))).toEqual({
      'vendor_payable:ven_1': -500,
      payouts_in_transit: 500,
    });
    expect(legs(payoutPaidJournal('pout_1', 'paystack', 500))).toEqual({
      payouts_in_transit: -500,
      'transfer_clearing:paystack': 500,
    });
    expect(legs(payoutFeeJournal('pout_1', 'paystack', 100))).toEqual({
      transfer_fees: -100,
      'transfer_clearing:paystack': 100,
    });
    expect(
      legs(payoutReturnedJournal('pout_1', plain, { paid: false, provider: 'paystack' })),
    ).toEqual({ payouts_in_transit: -500, 'vendor_payable:ven_1': 500 });
    expect(
      legs(payoutReturnedJournal('pout_1', plain, { paid: true, provider: 'paystack' })),
    ).toEqual({ 'transfer_clearing:paystack': -500, 'vendor_payable:ven_1': 500 });
    const cancelled = payoutReturnedJournal('pout_1', plain, {
      paid: false,
      provider: 'paystack',
      cancelled: true,
    });
    expect([legs(cancelled), cancelled.memo]).toEqual([
      { payouts_in_transit: -500, 'vendor_payable:ven_1': 500 },
      expect.stringContaining('destination was replaced'),
    ]);
  });

  it('deduct the receivable in the same journal, and owe it again when the payout comes back', () => {
    const split = splitOf(payeeAccounts('vendor:ven_1'), [
      { account: 'vendor_payable:ven_1', amount_pesewas: 3000 },
      { account: 'vendor_payable:ven_1', amount_pesewas: 2000 },
      { account: 'vendor_receivable:ven_1', amount_pesewas: -800 },
    ]);
    expect(split).toEqual({
      payable: 'vendor_payable:ven_1',
      fromPayable: 5000,
      receivable: 'vendor_receivable:ven_1',
      deducted: 800,
      fee: 0,
    });
    expect(legs(payoutCreatedJournal('pout_1', split))).toEqual({
      'vendor_payable:ven_1': -5000,
      'vendor_receivable:ven_1': 800,
      payouts_in_transit: 4200,
    });
    expect(
      legs(payoutReturnedJournal('pout_1', split, { paid: false, provider: 'paystack' })),
    ).toEqual({
      payouts_in_transit: -4200,
      'vendor_payable:ven_1': 5000,
      'vendor_receivable:ven_1': -800,
    });
    expect(payeeAccounts('partner:ptn_1')).toEqual({
      payable: 'partner_markup_payable:ptn_1',
      receivable: 'partner_markup_receivable:ptn_1',
    });
  });

  it('withhold a fee the payee bears, credit it against the transfer fees once paid, and give it back when the payout comes back', () => {
    const split = splitOf(
      payeeAccounts('vendor:ven_1'),
      [
        { account: 'vendor_payable:ven_1', amount_pesewas: 5000 },
        { account: 'vendor_receivable:ven_1', amount_pesewas: -800 },
      ],
      100,
    );
    const created = payoutCreatedJournal('pout_1', split);
    expect(legs(created)).toEqual({
      'vendor_payable:ven_1': -5000,
      'vendor_receivable:ven_1': 800,
      payouts_in_transit: 4100,
      payout_fees_withheld: 100,
    });
    expect(created.memo).toContain('less the transfer fee of 100, borne by the payee');
    expect(legs(payoutFeeRecoveredJournal('pout_1', 100))).toEqual({
      payout_fees_withheld: -100,
      transfer_fees: 100,
    });
    expect(
      legs(payoutReturnedJournal('pout_1', split, { paid: false, provider: 'paystack' })),
    ).toEqual({
      payouts_in_transit: -4100,
      payout_fees_withheld: -100,
      'vendor_payable:ven_1': 5000,
      'vendor_receivable:ven_1': -800,
    });
    expect(
      legs(payoutReturnedJournal('pout_1', split, { paid: true, provider: 'paystack' })),
    ).toEqual({
      'transfer_clearing:paystack': -4100,
      transfer_fees: -100,
      'vendor_payable:ven_1': 5000,
      'vendor_receivable:ven_1': -800,
    });
  });

  it('refuses an amount that is not positive', () => {
    expect(() => payoutCreatedJournal('pout_1', { ...plain, fromPayable: 0 })).toThrow();
    expect(() => payoutCreatedJournal('pout_1', { ...plain, deducted: 500 })).toThrow();
    expect(() => payoutCreatedJournal('pout_1', { ...plain, fee: 500 })).toThrow();
  });
});
