/** The chart of accounts: names shared by every module that posts. */
export const walletAccount = (partnerId: string) => `wallet:${partnerId}`;
export const DELIVERY_REVENUE = 'delivery_revenue';
/** What partners pay for the texts sent to their recipients (revenue, credited). */
export const MESSAGING_REVENUE = 'messaging_revenue';
export const gatewayClearing = (gateway: string) => `gateway_clearing:${gateway}`;
/** Safe-catalog settlement accounts: what the platform owes vendors and partners, and what it earns. */
export const vendorPayable = (vendorId: string) => `vendor_payable:${vendorId}`;
export const partnerMarkupPayable = (partnerId: string) => `partner_markup_payable:${partnerId}`;
/**
 * What a vendor or partner owes back (an asset, debited): a share paid out before it was earned
 * (a prepaid sale paid out before migration 044 moved its undelivered shares back), posted here
 * rather than on the payable, which never goes negative; the next payout deducts it.
 */
export const vendorReceivable = (vendorId: string) => `vendor_receivable:${vendorId}`;
export const partnerMarkupReceivable = (partnerId: string) =>
  `partner_markup_receivable:${partnerId}`;
export const PLATFORM_COMMISSION = 'platform_commission';
/** Cash a rider collected on delivery and has not yet handed over. */
export const RIDER_CASH_CLEARING = 'rider_cash_clearing';
/** Cash one courier collected on delivery (fees, cod sales) and has not yet handed in: an asset, debited (negative) as it grows. */
export const courierCash = (courierId: string) => `courier_cash:${courierId}`;
/** What the platform owes one courier for the jobs they did (a liability, credited as they earn). */
export const courierPayable = (courierId: string) => `courier_payable:${courierId}`;
/** What couriers' pay costs the platform (an expense, debited as each earning is booked). */
export const COURIER_PAY = 'courier_pay';
/** What a courier owes back (an asset, debited): a payout's deduction returned to them, as for vendors and partners. */
export const courierReceivable = (courierId: string) => `courier_receivable:${courierId}`;
/** The platform's own cash, where couriers' handovers land. */
export const PLATFORM_CASH = 'platform_cash';
/**
 * Buyer money received for prepaid sales whose delivery is not yet delivered: a liability (credited)
 * until delivery recognises the sale's shares, or a failure owes it back to the buyer.
 */
export const SALES_UNDELIVERED = 'sales_undelivered';
/** Money owed back to buyers whose prepaid sale failed before delivery, who paid a failed sale, or whose refund was reversed. */
export const SALE_REFUNDS_PAYABLE = 'sale_refunds_payable';
/** Suspense: buyer money a gateway collected for a sale that cannot be settled as it stands (amount differs). */
export const SALE_PAYMENTS_HELD = 'sale_payments_held';

/** Payouts: money on its way to a payee (a liability until the provider confirms or returns it). */
export const PAYOUTS_IN_TRANSIT = 'payouts_in_transit';
/** Our balance at a transfer provider (an asset): paid-out transfers and their fees credit it. */
export const transferClearing = (provider: string) => `transfer_clearing:${provider}`;
/** What transfer providers charge us for payouts (an expense, debited); payee-borne fees recovered credit it. */
export const TRANSFER_FEES = 'transfer_fees';
/** Transfer fees withheld from payees who bear them, while their payout is on its way (a liability). */
export const PAYOUT_FEES_WITHHELD = 'payout_fees_withheld';

/** The platform's bank account (an asset): gateways' settlements land here. */
export const PLATFORM_BANK = 'platform_bank';
/** What payment gateways charge us for collections, taken from their settlements (an expense, debited). */
export const GATEWAY_FEES = 'gateway_fees';
