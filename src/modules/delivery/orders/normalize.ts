import type { Environment } from '../../../platform/auth/scopes.ts';
import { errors, type ErrorDetail } from '../../../platform/errors.ts';
import { ghsToPesewas } from '../../../platform/money.ts';
import type { Destinations } from '../../../platform/outbound/destinations.ts';
import {
  STANDARD_PROMISE_MINUTES,
  accraDate,
  checkWindow,
  planWindows,
  type CalendarConfig,
  type DeliveryWindow,
  type PricingConfig,
} from '../domain/index.ts';
import { isIsoDate } from '../../../shared/ghana/index.ts';
import { isInGhana, normalizeGhanaPhone, type LatLng } from '../../../shared/ghana/index.ts';
import { DIGITAL_ADDRESS_ISSUE, feeFor, parseDigitalAddress } from '../domain/index.ts';
import type { DigitalAddress } from '../domain/index.ts';
import type { CreateOrderInput } from './schema.ts';

export interface AreaLookup {
  resolve(p: LatLng): Promise<{ region: string; serviceArea: string } | null>;
}

export interface NormalizeContext {
  environment: Environment;
  now: Date;
  pricing: PricingConfig;
  calendar: CalendarConfig;
  /** The shortest delivery window an order may ask for (WINDOW_MIN_MINUTES). */
  windowMinMinutes: number;
  areas: AreaLookup;
  destinations: Destinations;
}

/** An order as stored: phones in E.164, the fee in pesewas, regions and dates worked out. */
export interface NormalizedOrder {
  input: CreateOrderInput;
  payer: 'partner' | 'recipient';
  customerPhone: string;
  customerWhatsapp: string | null;
  pickupPhone: string;
  feePesewas: number | null;
  pickupRegion: string | null;
  dropoffRegion: string | null;
  serviceArea: string | null;
  pickupDate: string;
  estimatedDelivery: Date;
  /** GhanaPostGPS addresses, upper case; labels only. */
  pickupDigitalAddress: string | null;
  deliveryDigitalAddress: string | null;
  /** The window the partner asked for (pickup_ready_at, dropoff_deadline), when it did. */
  window: DeliveryWindow | null;
}

/**
 * The pickup day and promised time: from the window when one was asked for (the deadline, else as
 * long after the parcel is ready as a standard plan promises, by closing time), else from the usual
 * plan.
 */
function schedule(
  input: CreateOrderInput,
  window: DeliveryWindow | null,
  ctx: NormalizeContext,
): { pickupDate: string; estimatedDelivery: Date } {
  if (!window) {
    const plan = planWindows(ctx.now, input.delivery_date, 'standard', ctx.calendar);
    return { pickupDate: plan.pickupDate, estimatedDelivery: new Date(plan.estimatedDelivery) };
  }
  const ready = window.pickupReadyAt ?? ctx.now;
  const pickupDate = accraDate(ready);
  // Accra is UTC+0 (calendar.ts): the day's closing hour is that hour UTC.
  const closing = Date.parse(`${pickupDate}T00:00:00Z`) + ctx.calendar.closingHour * 3_600_000;
  const promised = Math.max(
    ready.getTime(),
    Math.min(ready.getTime() + STANDARD_PROMISE_MINUTES * 60_000, closing),
  );
  return { pickupDate, estimatedDelivery: window.dropoffDeadline ?? new Date(promised) };
}

function digital(
  value: string | undefined,
  field: string,
  issues: ErrorDetail[],
): DigitalAddress | null {
  if (value === undefined) return null;
  const parsed = parseDigitalAddress(value);
  if (!parsed) issues.push({ field, issue: DIGITAL_ADDRESS_ISSUE });
  return parsed;
}

function phone(value: string | undefined, field: string, issues: ErrorDetail[]): string | null {
  if (value === undefined) return null;
  const e164 = normalizeGhanaPhone(value);
  if (!e164)
    issues.push({
      field,
      issue: 'must be a Ghana phone number, e.g. 024 123 4567 or +233241234567',
    });
  return e164;
}

function inGhana(p: LatLng | undefined, field: string, issues: ErrorDetail[]): void {
  if (p && !isInGhana(p))
    issues.push({ field, issue: 'is outside Ghana, where we do not deliver' });
}

/**
 * The checks a schema cannot express (phones, real dates, Ghana, webhook URL, amounts) and the
 * values the platform derives (fee, regions, windows). Throws INVALID_ORDER_PAYLOAD with details.
 */
export async function normalizeOrder(
  input: CreateOrderInput,
  ctx: NormalizeContext,
): Promise<NormalizedOrder> {
  const issues: ErrorDetail[] = [];
  const customerPhone = phone(input.customer.phone, 'customer.phone', issues);
  const customerWhatsapp = phone(input.customer.whatsapp, 'customer.whatsapp', issues);
  const pickupPhone = phone(input.pickup.contact_phone, 'pickup.contact_phone', issues);
  const pickupDigital = digital(input.pickup.digital_address, 'pickup.digital_address', issues);
  const dropoffDigital = digital(
    input.delivery.digital_address,
    'delivery.digital_address',
    issues,
  );
  const pickup = input.pickup.coordinates;
  const dropoff = input.delivery.coordinates;
  inGhana(pickup, 'pickup.coordinates', issues);
  inGhana(dropoff, 'delivery.coordinates', issues);
  if (input.delivery_date !== undefined && !isIsoDate(input.delivery_date)) {
    issues.push({ field: 'delivery_date', issue: 'must be a real calendar date (YYYY-MM-DD)' });
  }
  if (input.webhook_url !== undefined) {
    const problem = await ctx.destinations.problem(input.webhook_url, ctx.environment);
    if (problem) issues.push({ field: 'webhook_url', issue: problem });
  }
  const payer = input.payment?.payer ?? 'recipient';
  let feePesewas: number | null = null;
  if (payer === 'partner') {
    // Wallet-funded fees are always priced by the server, so both ends must be known.
    if (!pickup)
      issues.push({
        field: 'pickup.coordinates',
        issue: 'is required when payment.payer is partner',
      });
    if (!dropoff)
      issues.push({
        field: 'delivery.coordinates',
        issue: 'is required when payment.payer is partner',
      });
  } else if (!(pickup && dropoff) && input.payment?.amount !== undefined) {
    feePesewas = ghsToPesewas(input.payment.amount);
    if (feePesewas === null)
      issues.push({ field: 'payment.amount', issue: 'must have at most 2 decimals' });
  }
  if (issues.length > 0) {
    throw errors.invalidOrderPayload(`${issues[0]!.field} ${issues[0]!.issue}.`, issues);
  }
  const window = checkWindow(input, ctx.now, {
    calendar: ctx.calendar,
    minMinutes: ctx.windowMinMinutes,
  });
  if (pickup && dropoff) feePesewas = feeFor(pickup, dropoff, ctx.pricing);

  const [pickupArea, dropoffArea] = await Promise.all([
    pickup ? ctx.areas.resolve(pickup) : null,
    dropoff ? ctx.areas.resolve(dropoff) : null,
  ]);
  return {
    input,
    payer,
    customerPhone: customerPhone!,
    customerWhatsapp,
    pickupPhone: pickupPhone!,
    feePesewas,
    pickupRegion: pickupArea?.region ?? null,
    // Without drop-off coordinates a digital address still names the area (labels, never the fee).
    dropoffRegion: dropoffArea?.region ?? dropoffDigital?.region ?? null,
    serviceArea: dropoffArea?.serviceArea ?? dropoffDigital?.zone ?? dropoffDigital?.region ?? null,
    ...schedule(input, window, ctx),
    pickupDigitalAddress: pickupDigital?.value ?? null,
    deliveryDigitalAddress: dropoffDigital?.value ?? null,
    window,
  };
}
