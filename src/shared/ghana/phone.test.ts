import { describe, expect, it } from 'vitest';
import { maskPhoneLast4, normalizeGhanaPhone } from './phone.ts';

describe('normalizeGhanaPhone', () => {
  it.each([
    ['024 123 4567', '+233241234567'],
    ['0241234567', '+233241234567'],
    ['+233241234567', '+233241234567'],
    ['233241234567', '+233241234567'],
    ['+233 24 123 4567', '+233241234567'],
    ['(024) 123-4567', '+233241234567'],
    ['024.123.4567', '+233241234567'],
    ['  024-123-4567  ', '+233241234567'],
    ['00233241234567', '+233241234567'],
    ['+233 (0)24 123 4567', '+233241234567'],
    ['2330241234567', '+233241234567'],
    ['024\u00a0123\u00a04567', '+233241234567'],
    ['0201234567', '+233201234567'], // Telecel
    ['0271234567', '+233271234567'], // AT
    ['0551234567', '+233551234567'], // MTN
    ['0591234567', '+233591234567'],
    ['0281234567', '+233281234567'],
    ['0302123456', '+233302123456'], // Accra fixed line
    ['0322123456', '+233322123456'], // Kumasi fixed line
    ['0312123456', '+233312123456'], // Takoradi fixed line
  ])('accepts %j → %s', (input, expected) => {
    expect(normalizeGhanaPhone(input)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['too short', '024123456'],
    ['too long', '02412345678'],
    ['too long international', '+2332412345678'],
    ['letters', '024ABC4567'],
    ['vanity letters', '024-CALL-NOW'],
    ['Nigerian number', '+2348031234567'],
    ['US number', '+12025550123'],
    ['no trunk zero', '241234567'],
    ['unknown prefix 21', '0211234567'],
    ['unknown prefix 22', '0221234567'],
    ['unknown prefix 51', '0511234567'],
    ['unknown prefix 58', '0581234567'],
    ['unknown prefix 40', '0401234567'],
    ['two plus signs', '++233241234567'],
    ['plus in the middle', '024+1234567'],
    ['extension', '0241234567 ext 2'],
    ['slash', '024/1234567'],
  ])('rejects %s (%j)', (_name, input) => {
    expect(normalizeGhanaPhone(input)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(normalizeGhanaPhone(241234567 as unknown as string)).toBeNull();
    expect(normalizeGhanaPhone(undefined as unknown as string)).toBeNull();
  });

  it('is idempotent on its own output', () => {
    const e164 = normalizeGhanaPhone('024 123 4567')!;
    expect(normalizeGhanaPhone(e164)).toBe(e164);
  });
});

describe('maskPhoneLast4', () => {
  it('keeps the last four digits only', () => {
    expect(maskPhoneLast4('+233241234567')).toBe('4567');
    expect(maskPhoneLast4('+233200000012')).toBe('0012');
    expect(maskPhoneLast4('12')).toBe('12');
  });
});
