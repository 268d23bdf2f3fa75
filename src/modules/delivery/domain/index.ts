/** The delivery domain: pricing, delivery days and windows, and the order status machine. Pure, no I/O. */

export {
  DEFAULT_PRICING,
  PRIORITIES,
  feeForDistanceKm,
  isPriority,
  priceAllPriorities,
  priceFee,
  feeFor,
  roadKm,
  roundUpTo,
  validatePricingConfig,
} from './pricing.ts';
export type { Priority, PricingConfig } from './pricing.ts';

export {
  ACCRA_UTC_OFFSET_MINUTES,
  DEFAULT_CALENDAR,
  STANDARD_PROMISE_MINUTES,
  accraDate,
  isDeliveryDay,
  nextDeliveryDay,
  planWindows,
  validateCalendarConfig,
} from './calendar.ts';
export type { CalendarConfig, DeliveryPlan, Window } from './calendar.ts';

export {
  DELIVERY_STATUSES,
  FAILURE_REASONS,
  FAILURE_TITLES,
  STAGES,
  allowedMoves,
  attemptsLeft,
  buildTimeline,
  canCancel,
  canTransition,
  describeStatus,
  isDeliveryStatus,
  isFailedAttempt,
  isStop,
  returnFee,
} from './status.ts';
export type {
  DeliveryStatus,
  FailureReason,
  StageStatus,
  TerminalStatus,
  TimelineEntry,
} from './status.ts';

export {
  DIGITAL_ADDRESS_ISSUE,
  DIGITAL_ADDRESS_ZONES,
  digitalAddressArea,
  parseDigitalAddress,
} from './digital-address.ts';
export type { DigitalAddress } from './digital-address.ts';

export {
  OFFERED_DAYS,
  SLOT_HOURS,
  WINDOW_MAX_DAYS,
  checkWindow,
  offeredWindows,
  parseWindowTime,
} from './windows.ts';
export type { DeliveryWindow, OfferedWindow, WindowInput, WindowRules } from './windows.ts';
