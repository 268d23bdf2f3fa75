import { createHash, createHmac } from 'node:crypto';
import { haversineKm, type LatLng } from '../../../shared/ghana/index.ts';

/**
 * Where a delivery proved by a photo or signature stands: `pending` until the recipient answers the
 * texted link, `confirmed` or `disputed` by them, `accepted` by an operator (from pending or disputed).
 */
export type ConfirmationState = 'pending' | 'confirmed' | 'disputed' | 'accepted';

/** The link's token: 43 base64url characters. */
export const CONFIRM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token of an order's confirmation link, derived (HMAC) rather than stored: the text can be sent
 * again after a crash, and the table keeps only its hash.
 */
export function confirmationToken(key: Buffer, orderId: string): string {
  return createHmac('sha256', key).update(`confirm\n${orderId}`, 'utf8').digest('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The courier's last reported position, if any. */
export interface ReportedPosition {
  lat: number | null;
  lng: number | null;
  at: Date | null;
}

export type FallbackCheck =
  | { ok: true; distanceM: number | null; positionAt: Date | null }
  | { ok: false; problem: 'no_position' | 'stale_position' | 'too_far'; distanceM?: number };

/**
 * Whether a photo or signature may finish the job: the courier's last position must be near the
 * drop-off and reported within the age limit of `nowMs` (the tap). An order without a drop-off point cannot be measured: allowed, its distance unknown
 * (the money still waits for the recipient).
 */
export function checkFallback(
  position: ReportedPosition,
  dropoff: LatLng | null,
  nowMs: number,
  limits: { maxDistanceM: number; maxAgeSeconds: number },
): FallbackCheck {
  if (!dropoff) return { ok: true, distanceM: null, positionAt: position.at };
  if (position.lat === null || position.lng === null || position.at === null)
    return { ok: false, problem: 'no_position' };
  // Measured either way: a position reported long after the tap is no better than one long before.
  if (Math.abs(nowMs - position.at.getTime()) > limits.maxAgeSeconds * 1000)
    return { ok: false, problem: 'stale_position' };
  const distanceM = Math.round(
    haversineKm({ lat: position.lat, lng: position.lng }, dropoff) * 1000,
  );
  if (distanceM > limits.maxDistanceM) return { ok: false, problem: 'too_far', distanceM };
  return { ok: true, distanceM, positionAt: position.at };
}

/** The recipient's text: what happened and the link to answer. */
export function confirmationMessage(url: string): string {
  return `Your delivery was left with a photo or signature instead of your code. Please confirm you received it, or tell us you did not: ${url}`;
}
