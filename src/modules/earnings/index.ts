/** Couriers' pay: versioned pay rules and policy, earnings booked on the ledger once per job occasion. */
export { EARNINGS_CHANNEL, EarningsService } from './service.ts';
export { DEFAULT_ZONE, occasionOf } from './domain/pay.ts';
export { payPolicyView, payRuleView } from './routes/admin-pay.ts';
export { earningsModule } from './module.ts';
