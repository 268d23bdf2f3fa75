import { describe, expect, it } from 'vitest';
import { payoutCreatedJournal, payoutFeeJournal, payoutPaidJournal, payoutReturnedJournal } from './journals.ts';

const legs = (j: { entries: Array<{ account: string; amountPesewas: number }> }) => Object.fromEntries(j.entries.map((e) => [e.account, e.amountPesewas]));

describe('payout journals', () => {
  it('move the payable to transit, transit to the provider, fees apart, and failures and reversals back', () => {
    expect(legs(payoutCreatedJournal('pout_1', 'vendor_payable:ven_1', 500))).toEqual({ 'vendor_payable:ven_1': -500, payouts_in_transit: 500 });
    expect(legs(payoutPaidJournal('pout_1', 'paystack', 500))).toEqual({ payouts_in_transit: -500, 'transfer_clearing:paystack': 500 });
    expect(legs(payoutFeeJournal('pout_1', 'paystack', 100))).toEqual({ transfer_fees: -100, 'transfer_clearing:paystack': 100 });
    expect(legs(payoutReturnedJournal('pout_1', 'vendor_payable:ven_1', 500, { paid: false, provider: 'paystack' }))).toEqual({ payouts_in_transit: -500, 'vendor_payable:ven_1': 500 });
    expect(legs(payoutReturnedJournal('pout_1', 'vendor_payable:ven_1', 500, { paid: true, provider: 'paystack' }))).toEqual({ 'transfer_clearing:paystack': -500, 'vendor_payable:ven_1': 500 });
  });

  it('refuses an amount that is not positive', () => {
    expect(() => payoutCreatedJournal('pout_1', 'vendor_payable:ven_1', 0)).toThrow();
  });
});
