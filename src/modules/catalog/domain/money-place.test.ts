import { describe, expect, it } from 'vitest';
import { saleMoneyPlace } from './money-place.ts';

const at = new Date('2026-11-26T10:00:00Z');
const where = (
  state: Parameters<typeof saleMoneyPlace>[0]['state'],
  payment_status: string,
  earned_at: Date | null = null,
  payment_method: 'online' | 'cod' = 'online',
) => saleMoneyPlace({ payment_method, state, payment_status, earned_at }).account;

describe("where a sale's money is", () => {
  it('follows a prepaid sale from payment to delivery, or to its refund', () => {
    expect(where('awaiting_payment', 'pending')).toBeNull();
    expect(where('confirmed', 'paid')).toBe('sales_undelivered');
    expect(where('confirmed', 'paid', at)).toContain('vendor_payable');
    expect(where('failed', 'refund_due')).toBe('sale_refunds_payable');
    expect(where('failed', 'refunded')).toBeNull();
    expect(where('on_hold', 'amount_mismatch')).toBe('sale_payments_held');
    expect(where('failed', 'declined')).toBeNull();
  });

  it('holds nothing for a cod sale before its delivery, the shares once delivered', () => {
    expect(where('awaiting_delivery', 'pending', null, 'cod')).toBeNull();
    expect(where('confirmed', 'collected', at, 'cod')).toContain('partner_markup_payable');
    expect(where('failed', 'not_collected', null, 'cod')).toBeNull();
  });
});
