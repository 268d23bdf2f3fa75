import { errors } from '../../../platform/errors.ts';
import {
  allowedMoves,
  isFailedAttempt,
  type DeliveryStatus,
  type FailureReason,
} from '../domain/index.ts';

/** How a move is made: its note, who asks (a refused cancel answers partners 400, operators 409), and why a delivery failed. */
/** Who moves an order: the partner (cancel), an operator, or the courier holding it (through dispatch). */
export type MoveActor = 'partner' | 'operator' | 'courier';

export interface MoveOptions {
  note?: string | undefined;
  by?: MoveActor;
  failureReason?: FailureReason | undefined;
}

/** 409 INVALID_TRANSITION naming the moves that are allowed (in the message and in details). */
export function invalidTransition(from: DeliveryStatus, to: DeliveryStatus, left: number) {
  const next = allowedMoves(from, left);
  const allowed =
    next.length === 0
      ? `${from} is final: no move is allowed`
      : `from ${from} it can move to ${next.join(', ')}`;
  const spent =
    from === 'in_transit' && to === 'in_transit' ? ' (no delivery attempt is left)' : '';
  return errors.invalidTransition(
    `An order cannot move from ${from} to ${to}${spent}: ${allowed}.`,
    [
      {
        field: 'status',
        issue:
          next.length === 0
            ? allowed
            : `must be one of ${next.join(', ')} (the moves allowed from ${from})`,
      },
    ],
  );
}

/** 400 VALIDATION_ERROR unless a failure reason comes exactly with the moves that take one (and `other` with a note). */
export function checkFailure(
  from: DeliveryStatus,
  to: DeliveryStatus,
  { failureReason, note }: MoveOptions,
): void {
  const field = 'failure_reason';
  if (isFailedAttempt(from, to) && !failureReason) {
    const what = to === 'returning' ? 'A return' : 'Another delivery attempt';
    throw errors.validation(
      `${what} needs a failure_reason: recipient_absent, refused, wrong_address or other.`,
      [{ field, issue: 'required for a could-not-deliver move' }],
    );
  }
  if (failureReason && !isFailedAttempt(from, to) && to !== 'failed') {
    throw errors.validation(
      `A failure_reason goes only with a could-not-deliver move (another attempt, returning) or failed, not with ${from} to ${to}.`,
      [{ field, issue: 'not allowed with this move' }],
    );
  }
  if (failureReason === 'other' && !note) {
    throw errors.validation('A failure_reason of other needs a note saying what happened.', [
      { field: 'note', issue: 'required when failure_reason is other' },
    ]);
  }
}
