import { describe, expect, it } from 'vitest';
import {
  codeMatches,
  codeMessage,
  hashCode,
  newCode,
  throttleWaitSeconds,
} from './sign-in-code.ts';

describe('sign-in codes', () => {
  it('are six digits, leading zeros kept, and vary', () => {
    const codes = Array.from({ length: 200 }, newCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(150);
  });

  it('match only the right code for the right row; spaces typed are ignored', () => {
    const stored = hashCode('csc_1', '012345');
    expect(codeMatches('csc_1', '012345', stored)).toBe(true);
    expect(codeMatches('csc_1', '012 345', stored)).toBe(true);
    expect(codeMatches('csc_1', '012346', stored)).toBe(false);
    expect(codeMatches('csc_2', '012345', stored)).toBe(false);
    expect(codeMatches('csc_1', '12345', stored)).toBe(false);
    expect(codeMatches('csc_1', '012345\u0000', stored)).toBe(false);
    expect(codeMatches('csc_1', '９１２３４５', hashCode('csc_1', '912345'))).toBe(false);
  });

  it('name the code and its lifetime in the message', () => {
    expect(codeMessage('004211')).toContain('004211');
    expect(codeMessage('004211')).toContain('5 minutes');
  });
});

describe('the request throttle', () => {
  const now = 1_000_000_000;
  const ago = (s: number) => new Date(now - s * 1000);
  it('lets requests through below the limit', () => {
    expect(throttleWaitSeconds([], 3, 900_000, now)).toBe(0);
    expect(throttleWaitSeconds([ago(10), ago(20)], 3, 900_000, now)).toBe(0);
  });
  it('counts only the window', () => {
    expect(throttleWaitSeconds([ago(10), ago(20), ago(901)], 3, 900_000, now)).toBe(0);
  });
  it('says how long until the oldest counted request leaves the window', () => {
    expect(throttleWaitSeconds([ago(100), ago(10), ago(20)], 3, 900_000, now)).toBe(800);
    expect(throttleWaitSeconds([ago(100), ago(10), ago(20), ago(500)], 3, 900_000, now)).toBe(800);
  });
});
