import { describe, expect, it } from 'vitest';
import { isId, newSequentialId, ulid } from './ids.ts';

describe('sequential ids', () => {
  it('follow one another within a millisecond (random ids fall in any order)', () => {
    const at = Date.parse('2026-11-29T23:00:00.123Z');
    const made = Array.from({ length: 1000 }, () => newSequentialId('aud', at));
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
    for (const id of made) {
      expect(isId('aud', id)).toBe(true);
      // The millisecond's time part, as in every ULID made then.
      expect(id.slice(4, 14)).toBe(ulid(at).slice(0, 10));
    }
  });

  it('start from fresh random bits in each new millisecond', () => {
    const a = newSequentialId('aud', 1_000_000);
    const b = newSequentialId('aud', 1_000_001);
    expect(b > a).toBe(true);
    expect(b.slice(14)).not.toBe(a.slice(14));
  });
});
