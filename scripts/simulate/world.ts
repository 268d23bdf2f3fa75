import { haversineKm, type LatLng } from '../../src/shared/ghana/index.ts';
import type { Random } from './clock.ts';

/** Central Accra: where the simulated day's pickups, drop-offs and couriers are. */
export const CENTRE: LatLng = { lat: 5.575, lng: -0.205 };
const KM_LAT = 1 / 110.6;
const KM_LNG = 1 / (111.3 * Math.cos((CENTRE.lat * Math.PI) / 180));

/** Average speeds through Accra's traffic (km/h): motorbikes weave, cars and vans queue. */
export const SPEED_KMH = { motorbike: 28, car: 20, van: 18 } as const;
export type SimVehicle = keyof typeof SPEED_KMH;

/** A point `km` away from `from` in a random direction. */
export function around(r: Random, from: LatLng, minKm: number, maxKm: number): LatLng {
  const km = r.between(minKm, maxKm);
  const angle = r.between(0, 2 * Math.PI);
  return {
    lat: round6(from.lat + Math.sin(angle) * km * KM_LAT),
    lng: round6(from.lng + Math.cos(angle) * km * KM_LNG),
  };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Simulated milliseconds to ride from a to b in a straight line at the vehicle's speed. */
export function rideMs(a: LatLng, b: LatLng, vehicle: SimVehicle): number {
  return (haversineKm(a, b) / SPEED_KMH[vehicle]) * 3_600_000;
}

/** Where a rider is after `fraction` (0..1) of the straight line from a to b. */
export function along(a: LatLng, b: LatLng, fraction: number): LatLng {
  const f = Math.min(1, Math.max(0, fraction));
  return { lat: round6(a.lat + (b.lat - a.lat) * f), lng: round6(a.lng + (b.lng - a.lng) * f) };
}

let phones = 0;
/** A Ghana mobile number no other simulated person of this run has (recipients and couriers). */
export function simPhone(prefix: '024' | '020', salt: number): string {
  phones++;
  return `${prefix}${String(salt % 100).padStart(2, '0')}${String(phones).padStart(5, '0')}`;
}
