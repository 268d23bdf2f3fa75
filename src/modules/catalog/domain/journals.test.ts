import { describe, expect, it } from 'vitest';
import { assertBalanced } from '../../ledger/index.ts';
import { saleRefundFeeJournal, saleRefundPaidJournal } from './journals.ts';

describe('buyer refund journals', () => {
  it('pays what is owed out of the gateway clearing for a gateway refund, the transfer clearing for mobile money', () => {
    expect(saleRefundPaidJournal('sale_1', { method: 'gateway_refund', provider: 'paystack' }, 4850).entries).toEqual([
      { account: 'sale_refunds_payable', amountPesewas: -4850 },
      { account: 'gateway_clearing:paystack', amountPesewas: 4850 },
    ]);
    const mm = saleRefundPaidJournal('sale_1', { method: 'mobile_money', provider: 'paystack' }, 4850);
    expect(mm.entries[1]).toEqual({ account: 'transfer_clearing:paystack', amountPesewas: 4850 });
    expect(() => assertBalanced(mm)).not.toThrow();
    expect(saleRefundFeeJournal('sale_1', 'paystack', 100).entries).toEqual([
      { account: 'transfer_fees', amountPesewas: -100 },
      { account: 'transfer_clearing:paystack', amountPesewas: 100 },
    ]);
  });

  it('refuses a refund of nothing or of a fraction of a pesewa', () => {
    for (const amount of [0, -1, 1.5]) expect(() => saleRefundPaidJournal('sale_1', { method: 'gateway_refund', provider: 'sandbox' }, amount)).toThrow();
  });
});
