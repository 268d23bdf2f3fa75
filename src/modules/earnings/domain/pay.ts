import type { ErrorDetail } from '../../../platform/errors.ts';
import {
  assertBalanced,
  COURIER_PAY,
  courierPayable,
  positive,
  type Journal,
} from '../../ledger/index.ts';

/** Bounds of a pay rule's amounts, in pesewas (the migration's checks say the same). */
export const PAY_LIMITS = Object.freeze({
  base_pesewas: 1_000_000,
  per_km_pesewas: 100_000,
  per_failed_attempt_pesewas: 1_000_000,
});
type PayAmountField = keyof typeof PAY_LIMITS;
const PAY_FIELDS = Object.keys(PAY_LIMITS) as PayAmountField[];

/** The zone of a rule for every zone without its own. */
export const DEFAULT_ZONE = 'default';
const ZONE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** How far in the past an effective_from may be (a form's clock is not the server's). */
export const PAST_SLACK_MS = 60_000;

export interface PayRuleInput {
  zone: string;
  vehicle: string;
  base_pesewas: number;
  per_km_pesewas: number;
  per_failed_attempt_pesewas: number;
  effective_from?: Date | undefined;
}

/** What a job paid: a delivery, or one of its trips that could not deliver. */
export type Occasion = 'delivered' | `failed_attempt:${number}`;

/** The problems of a pay rule (empty when it is acceptable): never applied in part. */
export function payRuleProblems(
  input: PayRuleInput,
  vehicles: readonly string[],
  now: Date,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (typeof input.zone !== 'string' || input.zone.length > 60 || !ZONE.test(input.zone))
    problems.push({
      field: 'zone',
      issue: `must be a zone id (lower case words joined by "-", e.g. greater-accra) or ${DEFAULT_ZONE}`,
    });
  if (!vehicles.includes(input.vehicle))
    problems.push({ field: 'vehicle', issue: `must be one of ${vehicles.join(', ')}` });
  for (const field of PAY_FIELDS) {
    const v = input[field];
    if (!Number.isSafeInteger(v) || v < 0 || v > PAY_LIMITS[field])
      problems.push({
        field,
        issue: `must be a whole number of pesewas from 0 to ${PAY_LIMITS[field]}`,
      });
  }
  const from = input.effective_from;
  if (
    from !== undefined &&
    (Number.isNaN(from.getTime()) || from.getTime() < now.getTime() - PAST_SLACK_MS)
  )
    problems.push({ field: 'effective_from', issue: 'must be a date and time from now on' });
  return problems;
}

/**
 * What one occasion pays under a rule: a delivery its base plus its per-km rate times the order's
 * road estimate (rounded to the pesewa); a failed attempt its flat rate.
 */
export function payFor(
  rule: Pick<PayRuleInput, PayAmountField>,
  occasion: Occasion,
  roadKm: number,
): number {
  if (occasion !== 'delivered') return rule.per_failed_attempt_pesewas;
  const km = Number.isFinite(roadKm) && roadKm > 0 ? roadKm : 0;
  return rule.base_pesewas + Math.round(rule.per_km_pesewas * km);
}

/** The occasion a move of an order pays for, if any: delivered, or the trip that just failed. */
export function occasionOf(move: {
  to: string;
  attempts: number;
  failedAttempt: boolean;
}): Occasion | undefined {
  if (move.to === 'delivered') return 'delivered';
  if (!move.failedAttempt) return undefined;
  // Going out again counts the next trip already; a return keeps the count of the trip that failed.
  const trip = move.to === 'in_transit' ? move.attempts - 1 : move.attempts;
  return `failed_attempt:${Math.max(1, trip)}`;
}

/** An earning booked: the platform's courier pay expense owes the courier (their payable). */
export function earningJournal(earningId: string, courierId: string, amount: number): Journal {
  return assertBalanced({
    kind: 'courier_earning',
    subjectId: earningId,
    memo: `pay earned by ${courierId}`,
    entries: [
      { account: COURIER_PAY, amountPesewas: -positive(amount) },
      { account: courierPayable(courierId), amountPesewas: amount },
    ],
  });
}
