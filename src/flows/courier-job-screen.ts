import type { CouriersService } from '../modules/couriers/index.ts';
import { FAILURE_REASONS, FAILURE_TITLES, type DeliveryModule } from '../modules/delivery/index.ts';
import {
  allowsStep,
  type BatchStop,
  type DispatchService,
  type Stage,
} from '../modules/dispatch/index.ts';
import { haversineKm } from '../shared/ghana/index.ts';

const NEXT: Record<string, Array<{ kind: string; label: string }>> = {
  accepted: [
    { kind: 'arrived_at_pickup', label: 'I am at the pickup' },
    { kind: 'picked_up', label: 'Picked up' },
  ],
  at_pickup: [{ kind: 'picked_up', label: 'Picked up' }],
  picked_up: [{ kind: 'arrived', label: 'I am at the drop-off' }],
  at_dropoff: [],
  returning: [{ kind: 'returned', label: 'Returned to the pickup' }],
};

const REASONS = FAILURE_REASONS.map((value) => ({ value, label: FAILURE_TITLES[value] }));

const place = (lat: number | null, lng: number | null) =>
  lat === null || lng === null ? undefined : { lat, lng };

type Sheet = NonNullable<Awaited<ReturnType<DeliveryModule['orders']['jobSheet']>>>;

/** Pickup steps go to every drop of a batch that can take them: the parcels are collected together. */
const PICKUP_STEPS = new Set(['arrived_at_pickup', 'picked_up']);

/**
 * A batch's drops as the screen lists them (route order, the one to act on now marked), the orders
 * each of the next steps goes to, and the fees added up; nothing more for a single job.
 */
async function batchView(
  orders: DeliveryModule['orders'],
  current: { order_id: string; stage: Stage | undefined; stops?: BatchStop[] | undefined },
  sheet: Sheet,
) {
  const next = (current.stage ? (NEXT[current.stage] ?? []) : []).map((n) => ({
    ...n,
    orders:
      current.stops && PICKUP_STEPS.has(n.kind)
        ? current.stops
            .filter((s) => s.stage && allowsStep(s.stage, n.kind as 'picked_up'))
            .map((s) => s.order_id)
        : [current.order_id],
  }));
  // A batch offer cut to one job (an operator took the others) is offered as a single job; a batch
  // in hand keeps its list to the last drop.
  const min = current.stage === undefined ? 2 : 1;
  if (!current.stops || current.stops.length < min) return { next, fee: sheet.fee_pesewas };
  const stops = [];
  let fee: number | null = 0;
  for (const s of current.stops) {
    const drop = s.order_id === current.order_id ? sheet : await orders.jobSheet(s.order_id);
    if (!drop) continue;
    fee = fee === null || drop.fee_pesewas === null ? null : fee + drop.fee_pesewas;
    stops.push({
      order_id: s.order_id,
      address: `${drop.delivery_address}, ${drop.delivery_city}`,
      customer: drop.customer_name,
      item: drop.item,
      current: s.order_id === current.order_id,
      returning: s.stage === 'returning',
    });
  }
  // An offer shows what the whole batch pays; a drop in hand its own fee (a recipient-paid fee is
  // collected at that door, each drop its own).
  return { next, fee: current.stage === undefined ? fee : sheet.fee_pesewas, stops };
}

/** The courier app's job screen: the offer or held job with its order's sheet, distance, navigation and next steps. */
export function courierJobView(
  dispatch: DispatchService,
  orders: DeliveryModule['orders'],
  couriers: CouriersService,
) {
  return async (courierId: string) => {
    const job = await dispatch.currentJob(courierId);
    if (!job) return undefined;
    const sheet = await orders.jobSheet(job.order_id);
    if (!sheet) return undefined;
    const courier = await couriers.get(courierId);
    const pickup = place(sheet.pickup_lat, sheet.pickup_lng);
    const dropoff = place(sheet.delivery_lat, sheet.delivery_lng);
    const here = place(courier.last_lat, courier.last_lng);
    const stage = job.kind === 'job' ? job.stage : undefined;
    const goingTo = stage === 'picked_up' || stage === 'at_dropoff' ? dropoff : pickup;
    const batch = await batchView(
      orders,
      { order_id: job.order_id, stage, stops: job.stops },
      sheet,
    );
    return {
      kind: job.kind,
      order_id: job.order_id,
      stage,
      expires_at: job.kind === 'offer' ? job.expires_at.toISOString() : undefined,
      sheet,
      /** A batch's drops in route order (absent for a single job); an offered batch's fees added up. */
      stops: batch.stops,
      fee_pesewas: batch.fee,
      distance_km: here && pickup ? Math.round(haversineKm(here, pickup) * 10) / 10 : undefined,
      navigation: goingTo && {
        geo: `geo:${goingTo.lat},${goingTo.lng}`,
        maps: `https://www.google.com/maps/dir/?api=1&destination=${goingTo.lat},${goingTo.lng}`,
      },
      next: batch.next,
      can_deliver: stage === 'picked_up' || stage === 'at_dropoff',
      returning: stage === 'returning',
      /** The could-not-deliver form's reasons, when the job can take it. */
      reasons: stage && allowsStep(stage, 'could_not_deliver') ? REASONS : [],
    };
  };
}
