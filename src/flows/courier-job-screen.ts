import type { CouriersService } from '../modules/couriers/index.ts';
import { FAILURE_REASONS, FAILURE_TITLES, type DeliveryModule } from '../modules/delivery/index.ts';
import { allowsStep, type DispatchService } from '../modules/dispatch/index.ts';
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
    return {
      kind: job.kind,
      order_id: job.order_id,
      stage,
      expires_at: job.kind === 'offer' ? job.expires_at.toISOString() : undefined,
      sheet,
      distance_km: here && pickup ? Math.round(haversineKm(here, pickup) * 10) / 10 : undefined,
      navigation: goingTo && {
        geo: `geo:${goingTo.lat},${goingTo.lng}`,
        maps: `https://www.google.com/maps/dir/?api=1&destination=${goingTo.lat},${goingTo.lng}`,
      },
      next: stage ? (NEXT[stage] ?? []) : [],
      can_deliver: stage === 'picked_up' || stage === 'at_dropoff',
      returning: stage === 'returning',
      /** The could-not-deliver form's reasons, when the job can take it. */
      reasons: stage && allowsStep(stage, 'could_not_deliver') ? REASONS : [],
    };
  };
}
