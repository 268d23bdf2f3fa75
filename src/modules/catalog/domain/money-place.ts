import { SALE_PAYMENTS_HELD, SALE_REFUNDS_PAYABLE, SALES_UNDELIVERED } from '../../ledger/index.ts';

/** What of a sale decides where its money is on the ledger. */
export interface SaleMoneyState {
  payment_method: 'online' | 'cod';
  state: 'awaiting_payment' | 'awaiting_delivery' | 'confirmed' | 'failed' | 'on_hold';
  payment_status: string;
  earned_at: Date | null;
}

/** Where a sale's money is now: the account that holds it (null when none holds it for the sale) and why, for operators. */
export interface MoneyPlace {
  account: string | null;
  text: string;
}

const EARNED = 'vendor_payable, partner_markup_payable, platform_commission, delivery_revenue';

/** The sale's money by its state (design: Safe-catalog money, each state of a sale). */
export function saleMoneyPlace(s: SaleMoneyState): MoneyPlace {
  switch (s.state) {
    case 'awaiting_payment':
      return { account: null, text: 'Nothing yet: waiting for the buyer to pay' };
    case 'awaiting_delivery':
      return { account: null, text: 'Nothing yet: the courier collects the total at the door' };
    case 'on_hold':
      return {
        account: SALE_PAYMENTS_HELD,
        text: 'Held for review: the gateway collected another amount than the total',
      };
    case 'confirmed':
      if (s.earned_at === null)
        return {
          account: SALES_UNDELIVERED,
          text: 'Paid, held for the sale until its delivery is delivered',
        };
      return {
        account: EARNED,
        text: "Earned at delivery: the vendor's and partner's shares are payable, the commission and fee are revenue",
      };
    case 'failed':
      if (s.payment_status === 'refund_due')
        return { account: SALE_REFUNDS_PAYABLE, text: 'Owed back to the buyer' };
      if (s.payment_status === 'refunded') return { account: null, text: 'Refunded to the buyer' };
      return { account: null, text: 'No money was taken' };
  }
}
