/**
 * A production activation request: draft → submitted → approved | rejected. A rejected request is
 * edited (back to draft) and submitted again; an approved one is final. Edits happen in draft (or on a
 * rejected request, which they return to draft); the operator decides only on a submitted one.
 */
export const ACTIVATION_STATES = ['draft', 'submitted', 'approved', 'rejected'] as const;
export type ActivationState = (typeof ACTIVATION_STATES)[number];
export type ActivationEvent = 'edit' | 'submit' | 'approve' | 'reject';

const MOVES: Record<ActivationEvent, Partial<Record<ActivationState, ActivationState>>> = {
  edit: { draft: 'draft', rejected: 'draft' },
  submit: { draft: 'submitted', rejected: 'submitted' },
  approve: { submitted: 'approved' },
  reject: { submitted: 'rejected' },
};

/** The state `event` leads to from `from`, or undefined when the move is not allowed. */
export function nextState(
  from: ActivationState,
  event: ActivationEvent,
): ActivationState | undefined {
  return MOVES[event][from];
}

/** The states `event` is allowed from (for messages). */
export function allowedFrom(event: ActivationEvent): ActivationState[] {
  return Object.keys(MOVES[event]) as ActivationState[];
}
