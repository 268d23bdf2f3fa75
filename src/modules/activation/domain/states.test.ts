import { describe, expect, it } from 'vitest';
import { ACTIVATION_STATES, allowedFrom, nextState } from './states.ts';

describe('activation request states', () => {
  it('goes draft → submitted → approved or rejected; a rejected request is edited and resubmitted', () => {
    expect(nextState('draft', 'edit')).toBe('draft');
    expect(nextState('draft', 'submit')).toBe('submitted');
    expect(nextState('submitted', 'approve')).toBe('approved');
    expect(nextState('submitted', 'reject')).toBe('rejected');
    expect(nextState('rejected', 'edit')).toBe('draft');
    expect(nextState('rejected', 'submit')).toBe('submitted');
  });

  it('refuses every other move; approved is final', () => {
    const allowed = new Set([
      'draft:edit',
      'draft:submit',
      'submitted:approve',
      'submitted:reject',
      'rejected:edit',
      'rejected:submit',
    ]);
    for (const from of ACTIVATION_STATES) {
      for (const event of ['edit', 'submit', 'approve', 'reject'] as const) {
        expect(nextState(from, event) !== undefined, `${from}:${event}`).toBe(
          allowed.has(`${from}:${event}`),
        );
      }
    }
    expect(allowedFrom('approve')).toEqual(['submitted']);
  });
});
