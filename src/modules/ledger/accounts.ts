/** The chart of accounts: names shared by every module that posts. */
export const walletAccount = (partnerId: string) => `wallet:${partnerId}`;
export const DELIVERY_REVENUE = 'delivery_revenue';
export const gatewayClearing = (gateway: string) => `gateway_clearing:${gateway}`;
/** Safe-catalog settlement accounts: what the platform owes vendors and partners, and what it earns. */
export const vendorPayable = (vendorId: string) => `vendor_payable:${vendorId}`;
export const partnerMarkupPayable = (partnerId: string) => `partner_markup_payable:${partnerId}`;
export const PLATFORM_COMMISSION = 'platform_commission';
/** Cash a rider collected on delivery and has not yet handed over. */
export const RIDER_CASH_CLEARING = 'rider_cash_clearing';
/** Money owed back to buyers whose prepaid sale failed after it was settled, or who paid a failed sale. */
export const SALE_REFUNDS_PAYABLE = 'sale_refunds_payable';
/** Suspense: buyer money a gateway collected for a sale that cannot be settled as it stands (amount differs). */
export const SALE_PAYMENTS_HELD = 'sale_payments_held';

