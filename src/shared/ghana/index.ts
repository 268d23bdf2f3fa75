/**
 * What the platform knows about Ghana, for any module: coordinates and the country's outline,
 * regions and named areas, phone numbers, and the public-holiday calendar. Pure data and
 * functions, no I/O.
 */
export { haversineKm, isInGhana, isValidLatLng, type LatLng } from './geo.ts';
export {
  DEFAULT_AREA_RADIUS_KM,
  filterAreas,
  findAreaById,
  nearestRegion,
  resolveArea,
  type Area,
  type Region,
  type ResolvedArea,
} from './areas.ts';
export { CENTRAL_ACCRA, GHANA_AREAS, GHANA_REGIONS } from './ghana-areas.ts';
export { maskPhoneLast4, normalizeGhanaPhone } from './phone.ts';
export {
  addDays,
  DAY_MS,
  toDayNumber,
  DEFAULT_HOLIDAYS,
  easterSunday,
  farmersDay,
  ghanaPublicHolidays,
  holidayName,
  isHoliday,
  isIsoDate,
  isSaturday,
  isSunday,
  type Holiday,
  type HolidayConfig,
  weekday,
} from './holidays.ts';
