import { describe, expect, it } from 'vitest';
import { formatGhs, ghsToPesewas, pesewasToGhs, withGhs } from './money.ts';

describe('money', () => {
  it('converts GHS with up to two decimals exactly', () => {
    expect(ghsToPesewas(19.99)).toBe(1999);
    expect(ghsToPesewas(0.1)).toBe(10);
    expect(ghsToPesewas(30)).toBe(3000);
    expect(ghsToPesewas(-2.5)).toBe(-250);
    expect(ghsToPesewas(0)).toBe(0);
  });

  it('refuses more than two decimals and non-finite numbers', () => {
    expect(ghsToPesewas(30.001)).toBeNull();
    expect(ghsToPesewas(0.1 + 0.2)).toBeNull();
    expect(ghsToPesewas(Number.NaN)).toBeNull();
    expect(ghsToPesewas(Number.POSITIVE_INFINITY)).toBeNull();
    expect(ghsToPesewas(1e21)).toBeNull();
    expect(ghsToPesewas(1e-7)).toBeNull();
    expect(ghsToPesewas(1.005 * 1000)).toBeNull(); // 1004.9999999999999
  });

  it('round-trips pesewas', () => {
    for (const p of [0, 1, 99, 1999, 123456789]) expect(ghsToPesewas(pesewasToGhs(p))).toBe(p);
  });

  it('formats pesewas as GHS with two decimals, exactly', () => {
    expect([0, 5, 99, 1999, 61000, -250].map(formatGhs)).toEqual([
      'GHS 0.00',
      'GHS 0.05',
      'GHS 0.99',
      'GHS 19.99',
      'GHS 610.00',
      'GHS -2.50',
    ]);
    expect(formatGhs(Number.MAX_SAFE_INTEGER)).toBe('GHS 90071992547409.91');
    expect(() => formatGhs(1.5)).toThrow(RangeError);
  });

  it('adds a *_ghs twin beside each *_pesewas amount, equal to the decimal text of the integer', () => {
    const o = withGhs({
      id: 'pout_1',
      amount_pesewas: 99_999_999,
      fee_pesewas: null,
      lines: 2,
      minimum_pesewas: 1,
    });
    expect(o).toEqual({
      id: 'pout_1',
      amount_pesewas: 99_999_999,
      fee_pesewas: null,
      lines: 2,
      minimum_pesewas: 1,
      amount_ghs: 999_999.99,
      fee_ghs: null,
      minimum_ghs: 0.01,
    });
    // The JSON text is the exact decimal the integer spells, never a binary float's tail.
    for (const p of [1, 10, 99, 1999, -500, 99_999_999, 123_456_789_01]) {
      const decimal = formatGhs(p)
        .slice('GHS '.length)
        .replace(/\.?0+$/, '');
      expect(JSON.stringify(withGhs({ a_pesewas: p }).a_ghs)).toBe(decimal);
    }
  });
});
