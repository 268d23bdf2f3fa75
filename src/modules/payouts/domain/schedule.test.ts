import { describe, expect, it } from 'vitest';
import { scheduledRunDue } from './schedule.ts';

describe('scheduledRunDue', () => {
  it('answers the Accra day once its cut-off has passed, nothing before', () => {
    expect(scheduledRunDue(Date.parse('2026-03-02T15:59:59Z'), 16 * 60)).toBeUndefined();
    expect(scheduledRunDue(Date.parse('2026-03-02T16:00:00Z'), 16 * 60)).toBe('2026-03-02');
    expect(scheduledRunDue(Date.parse('2026-03-02T23:59:00Z'), 16 * 60)).toBe('2026-03-02');
  });
});
