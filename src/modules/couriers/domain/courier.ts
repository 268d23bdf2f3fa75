/** What makes a courier's profile valid: pure checks, shared by creation and edits. */
import type { ErrorDetail } from '../../../platform/errors.ts';
import { isInGhana, isValidLatLng, normalizeGhanaPhone } from '../../../shared/ghana/index.ts';

export const VEHICLES = ['motorbike', 'car', 'van'] as const;
export type Vehicle = (typeof VEHICLES)[number];

export const MAX_ZONES = 20;
const ZONE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// Letters of any script, marks, spaces and a few name punctuations; no control characters.
const NAME = /^[\p{L}\p{M}][\p{L}\p{M} .'-]{0,119}$/u;

export interface CourierInput {
  name?: string;
  phone?: string;
  vehicle?: string;
  zones?: readonly string[];
}

export interface CleanCourierInput {
  name?: string;
  phone?: string;
  vehicle?: Vehicle;
  zones?: string[];
}

export function isVehicle(v: unknown): v is Vehicle {
  return typeof v === 'string' && (VEHICLES as readonly string[]).includes(v);
}

/** Normalises what is present (phone to E.164, zones lower-cased and unique) and lists every problem. */
export function cleanCourierInput(input: CourierInput): {
  value: CleanCourierInput;
  problems: ErrorDetail[];
} {
  const problems: ErrorDetail[] = [];
  const value: CleanCourierInput = {};
  if (input.name !== undefined) {
    const name = input.name.trim().replace(/ {2,}/g, ' ');
    if (NAME.test(name)) value.name = name;
    else
      problems.push({
        field: 'name',
        issue: 'must be 1 to 120 letters, spaces, dots, apostrophes or hyphens',
      });
  }
  if (input.phone !== undefined) {
    const phone = normalizeGhanaPhone(input.phone);
    if (phone) value.phone = phone;
    else
      problems.push({
        field: 'phone',
        issue: 'must be a Ghana mobile number, e.g. 0241234567 or +233241234567',
      });
  }
  if (input.vehicle !== undefined) {
    if (isVehicle(input.vehicle)) value.vehicle = input.vehicle;
    else problems.push({ field: 'vehicle', issue: `must be one of ${VEHICLES.join(', ')}` });
  }
  if (input.zones !== undefined) {
    const zones = [...new Set(input.zones.map((z) => z.trim().toLowerCase()))];
    if (zones.length <= MAX_ZONES && zones.every((z) => ZONE.test(z))) value.zones = zones;
    else
      problems.push({
        field: 'zones',
        issue: `must be at most ${MAX_ZONES} zone ids (lower-case letters, digits, - and _)`,
      });
  }
  return { value, problems };
}

/** A reported position: finite coordinates inside Ghana. */
export function positionProblem(lat: unknown, lng: unknown): ErrorDetail | undefined {
  const p = { lat, lng };
  if (!isValidLatLng(p) || !isInGhana(p))
    return { field: 'position', issue: 'must be a latitude and longitude inside Ghana' };
  return undefined;
}
