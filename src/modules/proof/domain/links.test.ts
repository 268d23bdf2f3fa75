import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linkIsValid, linkQuery, signLink } from './links.ts';

const key = randomBytes(32);
const now = Date.UTC(2026, 10, 24, 12);
const exp = now / 1000 + 900;

describe('signed media links', () => {
  it('are valid for their proof until they expire', () => {
    const sig = signLink(key, 'prf_A', exp);
    expect(linkQuery(key, 'prf_A', exp)).toBe(`exp=${exp}&sig=${sig}`);
    expect(linkIsValid(key, 'prf_A', String(exp), sig, now)).toBe(true);
    expect(linkIsValid(key, 'prf_A', String(exp), sig, exp * 1000 - 1)).toBe(true);
    expect(linkIsValid(key, 'prf_A', String(exp), sig, exp * 1000)).toBe(false);
  });

  it('refuse another proof, a moved expiry, another key and malformed parts', () => {
    const sig = signLink(key, 'prf_A', exp);
    expect(linkIsValid(key, 'prf_B', String(exp), sig, now)).toBe(false);
    expect(linkIsValid(key, 'prf_A', String(exp + 1), sig, now)).toBe(false);
    expect(linkIsValid(randomBytes(32), 'prf_A', String(exp), sig, now)).toBe(false);
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    for (const [e, s] of [
      [String(exp), flipped],
      [`${exp}.0`, sig],
      [`-${exp}`, sig],
      [String(exp), `${sig}=`],
      [undefined, sig],
      [String(exp), ['x']],
      ['1'.repeat(13), sig],
      [String(exp), ''],
    ] as const) {
      expect(linkIsValid(key, 'prf_A', e, s, now), `${String(e)} ${String(s)}`).toBe(false);
    }
  });
});
