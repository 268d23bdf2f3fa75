/** Couriers' pay: versioned pay rules and policy, earnings booked on the ledger once per job occasion. */
export { EarningsService, type CourierEarnings, type PayableJob } from './service.ts';
export {
  DEFAULT_ZONE,
  occasionOf,
  PAY_FIELDS,
  PAY_LIMITS,
  type Occasion,
  type PayRuleInput,
} from './domain/pay.ts';
export { payPolicyView, payRuleView } from './routes/admin-pay.ts';
export { earningsModule } from './module.ts';
