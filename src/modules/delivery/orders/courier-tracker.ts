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

export interface CourierTracker {
  /** The progress of the courier on the order's job, or undefined when no courier is on it or none reported yet. */
  forOrder(orderId: string): Promise<CourierProgress | undefined>;
}
