import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeMatches, generateCode, hashCode, isCodeShaped } from './code.ts';

const key = randomBytes(32);

describe('delivery codes', () => {
  it('are 4 digits, leading zeros kept, and spread over the whole range', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generateCode();
      expect(code).toMatch(/^\d{4}$/);
      seen.add(code[0]!);
    }
    expect(seen.size).toBe(10);
  });

  it('hash differently per order and per key, and never contain the code', () => {
    const h = hashCode(key, 'dlv_A', '0420');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toBe(hashCode(key, 'dlv_B', '0420'));
    expect(h).not.toBe(hashCode(randomBytes(32), 'dlv_A', '0420'));
    expect(h).not.toContain('0420');
  });

  it('match only the right code for the right order', () => {
    const h = hashCode(key, 'dlv_A', '0420');
    expect(codeMatches(key, 'dlv_A', '0420', h)).toBe(true);
    for (const wrong of ['0421', '420', '04200', ' 0420', '0420\n', '٠٤٢٠', ''])
      expect(codeMatches(key, 'dlv_A', wrong, h), wrong).toBe(false);
    expect(codeMatches(key, 'dlv_B', '0420', h)).toBe(false);
    expect(codeMatches(key, 'dlv_A', '0420', 'not-hex')).toBe(false);
    expect(isCodeShaped('12a4')).toBe(false);
  });
});
