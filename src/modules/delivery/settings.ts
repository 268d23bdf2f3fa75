import { int, dateList, type Env } from '../../platform/settings.ts';
import {
  DEFAULT_CALENDAR,
  validateCalendarConfig,
  type CalendarConfig,
} from './domain/calendar.ts';
import { DEFAULT_PRICING, validatePricingConfig, type PricingConfig } from './domain/pricing.ts';
import { trackingMapSettings, type TrackingMapSettings } from './tracking/map-settings.ts';
import { CALLBACK_SECRET, CALLBACK_SECRET_RULE } from './tracking/gateway-callback.ts';
import { maskedCallSettings, type MaskedCallSettings } from './tracking/masked-calls.ts';

export interface DeliverySettings {
  pricing: PricingConfig;
  calendar: CalendarConfig;
  /** Radius within which a coordinate takes a known area's name. */
  areaRadiusKm: number;
  /** How often cancelled wallet-funded orders are refunded; 0 turns the job off. */
  refundIntervalMs: number;
  /** Delivery attempts an order may make before it must be returned (the first trip counts). */
  maxDeliveryAttempts: number;
  /** The return fee of a returned wallet-funded order, as a percentage of its delivery fee (0: none). */
  returnFeePercent: number;
  /** How long a quote from orders.estimate holds its price (QUOTE_TTL_MINUTES, default 15). */
  quoteTtlMinutes: number;
  /** The shortest delivery window orders.create accepts, and the least orders.estimate offers (WINDOW_MIN_MINUTES, default 60). */
  windowMinMinutes: number;
  /** The tracking page's map; undefined (no map, no Leaflet) unless a tile server is configured. */
  trackingMap?: TrackingMapSettings | undefined;
  /** The secret in the USSD gateway's callback URL (USSD_CALLBACK_SECRET); unset: no USSD route. */
  ussdCallbackSecret?: string | undefined;
  /** Masked calls to the courier (CALL_MASKING_NUMBER, VOICE_CALLBACK_SECRET); unset: no call button. */
  maskedCalls?: MaskedCallSettings | undefined;
}

/** At least 24 URL-safe characters: it travels in the callback URL's path. */
function ussdSecret(env: Env, problems: string[]): string | undefined {
  const raw = env.USSD_CALLBACK_SECRET;
  if (raw === undefined || raw === '') return undefined;
  if (CALLBACK_SECRET.test(raw)) return raw;
  problems.push(`USSD_CALLBACK_SECRET must be ${CALLBACK_SECRET_RULE}`);
  return undefined;
}

function pricing(env: Env, problems: string[]): PricingConfig {
  const raw = env.PRICING_JSON;
  if (!raw) return DEFAULT_PRICING;
  try {
    const over = JSON.parse(raw) as Partial<PricingConfig>;
    return validatePricingConfig({
      ...DEFAULT_PRICING,
      ...over,
      basePesewas: { ...DEFAULT_PRICING.basePesewas, ...over.basePesewas },
      perKmPesewas: { ...DEFAULT_PRICING.perKmPesewas, ...over.perKmPesewas },
      minimumPesewas: { ...DEFAULT_PRICING.minimumPesewas, ...over.minimumPesewas },
    });
  } catch (err) {
    problems.push(`PRICING_JSON: ${(err as Error).message}`);
    return DEFAULT_PRICING;
  }
}

function calendar(env: Env, problems: string[]): CalendarConfig {
  const cfg: CalendarConfig = {
    ...DEFAULT_CALENDAR,
    sameDayCutoffHour: int(
      env,
      'SAME_DAY_CUTOFF_HOUR',
      DEFAULT_CALENDAR.sameDayCutoffHour,
      0,
      23,
      problems,
    ),
    eidDates: dateList(env, 'EID_DATES', DEFAULT_CALENDAR.eidDates, problems),
    extraHolidays: dateList(env, 'EXTRA_HOLIDAYS', DEFAULT_CALENDAR.extraHolidays, problems),
  };
  try {
    return validateCalendarConfig(cfg);
  } catch (err) {
    problems.push(`calendar: ${(err as Error).message}`);
    return DEFAULT_CALENDAR;
  }
}

/** The delivery service's settings (pricing, calendar, areas, its jobs), read from the environment. */
export function deliverySettings(env: Env, problems: string[]): DeliverySettings {
  return {
    pricing: pricing(env, problems),
    calendar: calendar(env, problems),
    areaRadiusKm: int(env, 'AREA_RADIUS_KM', 15, 1, 100, problems),
    refundIntervalMs: int(env, 'REFUND_INTERVAL_MS', 2000, 0, 3_600_000, problems),
    maxDeliveryAttempts: int(env, 'DELIVERY_MAX_ATTEMPTS', 2, 1, 5, problems),
    returnFeePercent: int(env, 'RETURN_FEE_PERCENT', 50, 0, 100, problems),
    quoteTtlMinutes: int(env, 'QUOTE_TTL_MINUTES', 15, 1, 1440, problems),
    windowMinMinutes: int(env, 'WINDOW_MIN_MINUTES', 60, 15, 720, problems),
    trackingMap: trackingMapSettings(env, problems),
    ussdCallbackSecret: ussdSecret(env, problems),
    maskedCalls: maskedCallSettings(env, problems),
  };
}
