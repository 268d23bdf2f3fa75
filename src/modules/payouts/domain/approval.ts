/** What decides whether a payout waits for a second finance operator. */
export interface ApprovalRules {
  /** A payout above this waits. */
  approvalAbovePesewas: number;
  /** A payout to a destination changed less than this long ago waits. */
  coolingHours: number;
}

/** Whether a destination changed recently enough that payouts to it wait for approval. */
export const cooling = (changedAt: Date, now: number, rules: ApprovalRules): boolean =>
  changedAt.getTime() > now - rules.coolingHours * 3_600_000;

/** Why a payout of `amount` to a destination changed at `changedAt` waits for approval: 'amount' and/or 'destination_changed' (none: it is sent). */
export function approvalReasons(
  amount: number,
  changedAt: Date,
  now: number,
  rules: ApprovalRules,
): string[] {
  return [
    ...(amount > rules.approvalAbovePesewas ? ['amount'] : []),
    ...(cooling(changedAt, now, rules) ? ['destination_changed'] : []),
  ];
}
