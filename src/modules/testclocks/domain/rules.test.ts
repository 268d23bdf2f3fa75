import { describe, expect, it } from 'vitest';
import { checkAdvance, checkFrozenTime, MAX_ADVANCE_MS, nextStop } from './rules.ts';

const at = (iso: string) => new Date(iso);

describe('checkAdvance', () => {
  const from = at('2026-12-01T08:00:00Z');

  it('accepts a later time up to 60 days ahead', () => {
    expect(() => checkAdvance(from, new Date(from.getTime() + 1))).not.toThrow();
    expect(() => checkAdvance(from, new Date(from.getTime() + MAX_ADVANCE_MS))).not.toThrow();
  });

  it('refuses the same or an earlier time', () => {
    expect(() => checkAdvance(from, from)).toThrow(
      expect.objectContaining({ code: 'TEST_CLOCK_BACKWARDS' }),
    );
    expect(() => checkAdvance(from, at('2026-11-30T08:00:00Z'))).toThrow(
      expect.objectContaining({ statusCode: 400, code: 'TEST_CLOCK_BACKWARDS' }),
    );
  });

  it('refuses more than 60 days at once', () => {
    expect(() => checkAdvance(from, new Date(from.getTime() + MAX_ADVANCE_MS + 1))).toThrow(
      expect.objectContaining({ code: 'TEST_CLOCK_ADVANCE_TOO_FAR' }),
    );
  });
});

describe('checkFrozenTime', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  it('accepts a year either side and refuses beyond', () => {
    expect(() => checkFrozenTime(at('2026-01-01T00:00:00Z'), now)).not.toThrow();
    expect(() => checkFrozenTime(at('2027-11-29T00:00:00Z'), now)).not.toThrow();
    expect(() => checkFrozenTime(at('2099-01-01T00:00:00Z'), now)).toThrow(
      expect.objectContaining({ code: 'TEST_CLOCK_TIME_OUT_OF_RANGE' }),
    );
  });
});

describe('nextStop', () => {
  const now = at('2026-12-01T08:00:00Z');
  const to = at('2026-12-01T09:00:00Z');

  it('is the earliest due time after now and by the target', () => {
    expect(
      nextStop(now, to, [at('2026-12-01T08:30:00Z'), null, at('2026-12-01T08:10:00Z')]),
    ).toEqual(at('2026-12-01T08:10:00Z'));
  });

  it('skips what is due at or before now (run already) and after the target', () => {
    expect(
      nextStop(now, to, [now, at('2026-12-01T07:00:00Z'), at('2026-12-01T09:00:01Z')]),
    ).toBeUndefined();
    expect(nextStop(now, to, [to])).toEqual(to);
    expect(nextStop(now, to, [])).toBeUndefined();
  });
});
