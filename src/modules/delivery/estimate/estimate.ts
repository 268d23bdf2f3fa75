/**
 * orders.estimate as a plain async function: prices every priority, plans the windows and
 * labels both ends. No I/O of its own; the area lookup (live areas) and the clock are injected.
 */
import { errors } from '../../../platform/errors.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import {
  ACCRA_UTC_OFFSET_MINUTES,
  accraDate,
  PRIORITIES,
  feeFor,
  offeredWindows,
  planWindows,
  priceFee,
  type CalendarConfig,
  type DeliveryPlan,
  type OfferedWindow,
  type Priority,
  type PricingConfig,
  type Window,
} from '../domain/index.ts';
import { holidayName, isIsoDate, isSunday } from '../../../shared/ghana/index.ts';
import {
  CENTRAL_ACCRA,
  isValidLatLng,
  type LatLng,
  type ResolvedArea,
} from '../../../shared/ghana/index.ts';

export interface EstimateInput {
  delivery_location: { coordinates: LatLng; address?: string };
  pickup_location?: { address?: string; coordinates?: LatLng };
  priority?: Priority;
  /** YYYY-MM-DD (Accra); shapes the windows only, never the price (design: Pricing). */
  order_date?: string;
}

export interface EstimateDeps {
  pricing: PricingConfig;
  calendar: CalendarConfig;
  /** The shortest window orders.create accepts: every window offered is at least this long. */
  windowMinMinutes: number;
  /** Area of a point, live areas included; null outside Ghana. */
  resolve: (p: LatLng) => Promise<ResolvedArea | null>;
  now: Date;
}

export interface EstimateData {
  estimated_price: number;
  estimated_delivery_time: string;
  pickup_time: string;
  delivery_time: string;
  pickup_region: string;
  dropoff_region: string;
  pickup_description: string;
  dropoff_description: string;
  delivery_window: Window;
  priority_level: Priority;
  service_type: 'same_day' | 'next_day';
  available_options: Array<{ priority: Priority; price: number; description: string }>;
  location_coverage: { delivery_available: boolean; service_area: string };
  additional_info: {
    weekend_delivery: boolean;
    holiday_delivery: boolean;
    tracking_available: boolean;
    pickup_description: string;
    delivery_description: string;
  };
  /** Delivery windows orders.create accepts as pickup_ready_at and dropoff_deadline (none outside Ghana). */
  windows: OfferedWindow[];
  /** The price lock of a standard estimate (added by the route, which knows the caller). */
  quote_id?: string;
  quote_expires_at?: string;
}

/** Label used for an end of the route that is outside Ghana (we only serve Ghana). */
export const OUTSIDE_GHANA = 'Outside Ghana';

const SERVICE_TYPE: Record<Priority, 'same_day' | 'next_day'> = {
  standard: 'same_day',
  cargo: 'same_day',
  economy: 'next_day',
};

const OPTION_TEXT: Record<Priority, string> = {
  standard: 'Standard, same day',
  economy: 'Economy, batched for the next delivery day',
  cargo: 'Cargo, larger loads the same day in a later window',
};

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Accra wall-clock parts of an instant; written by hand so output never depends on the host's ICU. */
function local(iso: string): { day: string; time: string } {
  const d = new Date(Date.parse(iso) + ACCRA_UTC_OFFSET_MINUTES * 60_000);
  return {
    day: `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
    time: d.toISOString().slice(11, 16),
  };
}

function dayText(date: string): string {
  return local(`${date}T12:00:00.000Z`).day;
}

function windowText(w: Window): string {
  const a = local(w.earliest);
  const b = local(w.latest);
  return a.day === b.day
    ? `on ${a.day} between ${a.time} and ${b.time}`
    : `between ${a.day} ${a.time} and ${b.day} ${b.time}`;
}

/** Why a requested date is not the pickup day, or '' when it is (or none was asked). */
function movedReason(
  requested: string | undefined,
  plan: DeliveryPlan,
  cfg: CalendarConfig,
  today: string,
): string {
  if (requested === undefined || requested === plan.pickupDate) return '';
  const holiday = holidayName(requested, cfg);
  const why =
    requested < today
      ? 'has passed'
      : holiday
        ? `is a public holiday (${holiday})`
        : isSunday(requested)
          ? 'is a Sunday (couriers run Monday to Saturday)'
          : "is past today's same-day cut-off";
  return ` ${dayText(requested)} ${why}, so pickup is on ${dayText(plan.pickupDate)}.`;
}

function place(address: string | undefined, area: ResolvedArea | null, fallback: string): string {
  if (address?.trim()) return address.trim();
  if (!area) return fallback;
  return area.serviceArea === area.region
    ? `${area.region} region`
    : `${area.serviceArea}, ${area.region}`;
}

function invalid(field: string, issue: string): never {
  throw errors.validation(`${field} ${issue}.`, [{ field, issue }]);
}

/**
 * The estimate `data` of the contract. Outside Ghana (either end) it still answers, with
 * `delivery_available: false` and every price 0: there is no quote for a route we do not serve
 * (orders.create refuses it), and a 0 cannot be mistaken for a real fee. The windows are still
 * planned so the shape never changes; `delivery_available` is the field to check.
 */
export async function estimateDelivery(
  input: EstimateInput,
  deps: EstimateDeps,
): Promise<EstimateData> {
  if (input.order_date !== undefined && !isIsoDate(input.order_date)) {
    invalid('order_date', 'must be a real calendar date written YYYY-MM-DD');
  }
  const dropoff = input.delivery_location.coordinates;
  if (!isValidLatLng(dropoff))
    invalid('delivery_location.coordinates', 'must be {lat, lng} in decimal degrees');
  const pickup = input.pickup_location?.coordinates ?? CENTRAL_ACCRA;
  if (!isValidLatLng(pickup))
    invalid('pickup_location.coordinates', 'must be {lat, lng} in decimal degrees');
  const priority = input.priority ?? 'standard';

  const [from, to] = await Promise.all([deps.resolve(pickup), deps.resolve(dropoff)]);
  const available = from !== null && to !== null;
  const outside =
    !from && !to
      ? 'the pickup and delivery points are'
      : !from
        ? 'the pickup point is'
        : 'the delivery point is';

  const plans = new Map(
    PRIORITIES.map((p) => [p, planWindows(deps.now, input.order_date, p, deps.calendar)] as const),
  );
  const options = PRIORITIES.map((p) => {
    const pesewas = !available
      ? 0
      : p === 'standard'
        ? feeFor(pickup, dropoff, deps.pricing)
        : priceFee(pickup, dropoff, p, deps.pricing);
    const description = available
      ? `${OPTION_TEXT[p]}: delivered ${windowText(plans.get(p)!.deliveryWindow)} (Ghana time).`
      : `Not available: ${outside} outside Ghana.`;
    return { priority: p, price: pesewasToGhs(pesewas), description };
  });
  const plan = plans.get(priority)!;
  const chosen = options.find((o) => o.priority === priority)!;

  const unavailable = `Not available: ${outside} outside Ghana, the only country we serve.`;
  const pickupAddress = input.pickup_location?.address?.trim();
  const pickupDescription = input.pickup_location?.coordinates
    ? place(pickupAddress, from, OUTSIDE_GHANA)
    : pickupAddress
      ? `${pickupAddress} (priced from central Accra: no pickup coordinates were given)`
      : 'Central Accra (default pickup point)';
  return {
    estimated_price: chosen.price,
    estimated_delivery_time: plan.estimatedDelivery,
    pickup_time: plan.pickupWindow.earliest,
    delivery_time: plan.deliveryWindow.earliest,
    pickup_region: from?.region ?? OUTSIDE_GHANA,
    dropoff_region: to?.region ?? OUTSIDE_GHANA,
    pickup_description: pickupDescription,
    dropoff_description: place(input.delivery_location.address, to, OUTSIDE_GHANA),
    delivery_window: { earliest: plan.deliveryWindow.earliest, latest: plan.deliveryWindow.latest },
    priority_level: priority,
    service_type: SERVICE_TYPE[priority],
    available_options: options,
    location_coverage: {
      delivery_available: available,
      service_area: to?.serviceArea ?? OUTSIDE_GHANA,
    },
    additional_info: {
      weekend_delivery: plan.weekendDelivery,
      holiday_delivery: plan.holidayDelivery,
      tracking_available: available,
      pickup_description: available
        ? `Pickup ${windowText(plan.pickupWindow)} (Ghana time).${movedReason(input.order_date, plan, deps.calendar, accraDate(deps.now))}`
        : unavailable,
      delivery_description: available
        ? `Delivery ${windowText(plan.deliveryWindow)} (Ghana time).`
        : unavailable,
    },
    windows: available
      ? offeredWindows(deps.now, { calendar: deps.calendar, minMinutes: deps.windowMinMinutes })
      : [],
  };
}
