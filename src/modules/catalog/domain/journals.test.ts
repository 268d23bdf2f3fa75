import { describe, expect, it } from 'vitest';
import { assertBalanced } from '../../ledger/index.ts';
import {
  salePaymentJournal,
  saleRefundFeeJournal,
  saleRefundPaidJournal,
  saleRefundReversedJournal,
  saleSettlementJournal,
  saleUndeliveredRefundJournal,
} from './journals.ts';

const legs = (j: { entries: Array<{ account: string; amountPesewas: number }> }) =>
  Object.fromEntries(j.entries.map((e) => [e.account, e.amountPesewas]));
const amounts = {
  saleId: 'sale_1',
  vendorId: 'ven_1',
  partnerId: 'ptn_1',
  vendorPayable: 9000,
  commission: 1000,
  deliveryFee: 1500,
  markup: 500,
};

describe('a prepaid sale on the ledger', () => {
  it('holds the buyer money for the undelivered sale at payment, touching no payable', () => {
    const paid = salePaymentJournal('sale_1', 'paystack', 12000);
    expect([paid.kind, paid.subjectId]).toEqual(['sale_payment', 'sale_1']);
    expect(legs(paid)).toEqual({ 'gateway_clearing:paystack': -12000, sales_undelivered: 12000 });
  });

  it('moves the shares out of what it held at delivery, as a cod sale settles from the cash', () => {
    const delivered = saleSettlementJournal(amounts, 'undelivered');
    expect(delivered.kind).toBe('sale_settlement');
    expect(legs(delivered)).toEqual({
      sales_undelivered: -12000,
      'vendor_payable:ven_1': 9000,
      platform_commission: 1000,
      delivery_revenue: 1500,
      'partner_markup_payable:ptn_1': 500,
    });
    expect(legs(saleSettlementJournal(amounts, 'cash')).rider_cash_clearing).toBe(-12000);
    // A sale settled at payment before migration 044 keeps one journal per kind: its delivery has its own.
    expect(saleSettlementJournal(amounts, 'undelivered', 'sale_settlement_at_delivery').kind).toBe(
      'sale_settlement_at_delivery',
    );
  });

  it('owes what it held back to the buyer when it fails before delivery', () => {
    const failed = saleUndeliveredRefundJournal('sale_1', 12000);
    expect([failed.kind, failed.subjectId]).toEqual(['sale_undelivered_refund', 'sale_1']);
    expect(legs(failed)).toEqual({ sales_undelivered: -12000, sale_refunds_payable: 12000 });
  });
});

describe('buyer refund journals', () => {
  it('pays what is owed out of the gateway clearing for a gateway refund, the transfer clearing for mobile money, keyed by the attempt', () => {
    const paid = saleRefundPaidJournal(
      'srf_1',
      { method: 'gateway_refund', provider: 'paystack' },
      4850,
    );
    expect(paid.subjectId).toBe('srf_1');
    expect(paid.entries).toEqual([
      { account: 'sale_refunds_payable', amountPesewas: -4850 },
      { account: 'gateway_clearing:paystack', amountPesewas: 4850 },
    ]);
    const mm = saleRefundPaidJournal(
      'srf_1',
      { method: 'mobile_money', provider: 'paystack' },
      4850,
    );
    expect(mm.entries[1]).toEqual({ account: 'transfer_clearing:paystack', amountPesewas: 4850 });
    expect(() => assertBalanced(mm)).not.toThrow();
    expect(saleRefundFeeJournal('srf_1', 'paystack', 100).entries).toEqual([
      { account: 'transfer_fees', amountPesewas: -100 },
      { account: 'transfer_clearing:paystack', amountPesewas: 100 },
    ]);
  });

  it('books a reversed refund back to what is owed to the buyer, from where it had left', () => {
    const reversed = saleRefundReversedJournal(
      'srf_1',
      { method: 'mobile_money', provider: 'fake' },
      4850,
    );
    expect([reversed.kind, reversed.subjectId]).toEqual(['sale_refund_reversed', 'srf_1']);
    expect(legs(reversed)).toEqual({ 'transfer_clearing:fake': -4850, sale_refunds_payable: 4850 });
    expect(
      legs(
        saleRefundReversedJournal(
          'srf_2',
          { method: 'gateway_refund', provider: 'paystack' },
          4850,
        ),
      )['gateway_clearing:paystack'],
    ).toBe(-4850);
  });

  it('refuses a refund of nothing or of a fraction of a pesewa', () => {
    for (const amount of [0, -1, 1.5])
      expect(() =>
        saleRefundPaidJournal('srf_1', { method: 'gateway_refund', provider: 'sandbox' }, amount),
      ).toThrow();
  });
});
