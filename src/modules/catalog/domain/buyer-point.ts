import type { LatLng } from '../../../shared/ghana/index.ts';

export interface BuyerCoordinates {
  coordinates?: LatLng;
  lat?: number;
  lng?: number;
}

/**
 * The buyer's point from either form an order may send it in: `coordinates {lat, lng}` (the
 * canonical form, as on delivery orders) or the older `lat`/`lng`. Both sent: they must name the
 * same point, or the answer is `conflict` (never a silent pick of one). Half a `lat`/`lng` pair
 * is the caller's to refuse first.
 */
export function buyerPoint(
  d: BuyerCoordinates,
): { point: LatLng | undefined } | { conflict: true } {
  const flat = d.lat !== undefined && d.lng !== undefined ? { lat: d.lat, lng: d.lng } : undefined;
  if (d.coordinates && flat && (d.coordinates.lat !== flat.lat || d.coordinates.lng !== flat.lng))
    return { conflict: true };
  const point = d.coordinates ?? flat;
  return { point: point && { lat: point.lat, lng: point.lng } };
}
