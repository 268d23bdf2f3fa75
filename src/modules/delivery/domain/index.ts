/** Public API of the delivery domain: pure functions and data, no I/O. */

export { haversineKm, isInGhana, isValidLatLng } from './geo.ts';
export type { LatLng } from './geo.ts';

export { DEFAULT_AREA_RADIUS_KM, filterAreas, findAreaById, nearestRegion, resolveArea } from './areas.ts';
export type { Area, Region, ResolvedArea } from './areas.ts';
export { CENTRAL_ACCRA, GHANA_AREAS, GHANA_REGIONS } from './ghana-areas.ts';

export {
  DEFAULT_PRICING,
  PRIORITIES,
  feeForDistanceKm,
  isPriority,
  priceAllPriorities,
  priceFee,
  roundUpTo,
  validatePricingConfig,
} from './pricing.ts';
export type { Priority, PricingConfig } from './pricing.ts';

export {
  ACCRA_UTC_OFFSET_MINUTES,
  DEFAULT_CALENDAR,
  DEFAULT_HOLIDAYS,
  accraDate,
  addDays,
  easterSunday,
  farmersDay,
  ghanaPublicHolidays,
  holidayName,
  isDeliveryDay,
  isHoliday,
  isIsoDate,
  isSaturday,
  isSunday,
  nextDeliveryDay,
  planWindows,
  validateCalendarConfig,
} from './calendar.ts';
export type { CalendarConfig, DeliveryPlan, Holiday, HolidayConfig, Window } from './calendar.ts';

export { maskPhoneLast4, normalizeGhanaPhone } from './phone.ts';

export {
  DELIVERY_STATUSES,
  STAGES,
  buildTimeline,
  canCancel,
  canTransition,
  describeStatus,
  isDeliveryStatus,
  nextSandboxStatus,
} from './status.ts';
export type { DeliveryStatus, StageStatus, TerminalStatus, TimelineEntry } from './status.ts';
