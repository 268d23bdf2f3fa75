import type { ReadAlongside } from './alongside.ts';

/**
 * What delivery needs of live location: where the courier holding an order is and when they are
 * expected at their next stop, for orders.track and the tracking page. The app passes dispatch's
 * implementation in; delivery knows nothing else of couriers.
 */
export interface CourierProgress {
  position: { lat: number; lng: number };
  /** When the courier reported that position. */
  updated_at: string;
  /** When the courier is expected at their next stop; null when that stop's coordinates are unknown. */
  eta: string | null;
  /** The pickup point until the parcel is picked up, then the drop-off. */
  next_stop: 'pickup' | 'dropoff';
}

/** What a recipient's tracking page shows of the courier: progress and who they are. */
export interface TrackedCourier extends CourierProgress {
  courier: { first_name: string; vehicle: string };
}

export interface CourierTracker {
  /** The progress of the courier on the order's job, or undefined when no courier is on it or none reported yet. */
  forOrder(orderId: string): Promise<CourierProgress | undefined>;
  /**
   * The same, its job and newest position read inside delivery's read of the order (orders.track);
   * `read` looks up only what the statement cannot hold (the courier's vehicle, when one holds it).
   */
  readonly alongside: ReadAlongside<Promise<CourierProgress | undefined>>;
  /** The same for several orders in one read, with the courier's first name and vehicle (orders with none are left out). */
  forOrders(orderIds: readonly string[]): Promise<Map<string, TrackedCourier>>;
  /** The phone of the courier holding the order's job: the far end of a masked call, never shown. */
  phoneFor(orderId: string): Promise<string | undefined>;
}

/**
 * Committed changes a recipient's tracking page shows (a status, a courier's new position) notify
 * this channel; the tracking pages' event streams read again when it rings.
 */
export const TRACKING_CHANNEL = 'delivery_tracking';
