import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ghsToPesewas, pesewasToGhs } from './money.ts';

describe('pesewasToGhs', () => {
  it('converts to an exact 2-decimal number', () => {
    expect(pesewasToGhs(1999)).toBe(19.99);
    expect(pesewasToGhs(4550)).toBe(45.5);
    expect(pesewasToGhs(5)).toBe(0.05);
    expect(pesewasToGhs(0)).toBe(0);
    expect(pesewasToGhs(-150)).toBe(-1.5);
    expect(JSON.stringify({ a: pesewasToGhs(30) })).toBe('{"a":0.3}');
  });

  it('never returns -0', () => {
    expect(Object.is(pesewasToGhs(-0), 0)).toBe(true);
  });

  it('rejects non-integer pesewas', () => {
    expect(() => pesewasToGhs(1.5)).toThrow(RangeError);
    expect(() => pesewasToGhs(Number.NaN)).toThrow(RangeError);
    expect(() => pesewasToGhs(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('prints with at most 2 decimals for any integer amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (p) => {
        const text = String(pesewasToGhs(p));
        expect(text).toMatch(/^-?\d+(\.\d{1,2})?$/);
      }),
    );
  });
});

describe('ghsToPesewas', () => {
  it('handles float pitfalls', () => {
    expect(ghsToPesewas(19.99)).toBe(1999);
    expect(ghsToPesewas(0.1 + 0.2)).toBe(30);
    expect(ghsToPesewas(1.1)).toBe(110);
    expect(ghsToPesewas(30)).toBe(3000);
    expect(ghsToPesewas(0.01)).toBe(1);
    expect(ghsToPesewas(4.35)).toBe(435);
    expect(ghsToPesewas(12345678.91)).toBe(1234567891);
  });

  it('rejects more than 2 decimals', () => {
    expect(ghsToPesewas(30.001)).toBeNull();
    expect(ghsToPesewas(30.0001)).toBeNull();
    expect(ghsToPesewas(1.005)).toBeNull();
    expect(ghsToPesewas(0.001)).toBeNull();
  });

  it('rejects non-finite and overflowing values', () => {
    expect(ghsToPesewas(Number.NaN)).toBeNull();
    expect(ghsToPesewas(Number.POSITIVE_INFINITY)).toBeNull();
    expect(ghsToPesewas(Number.NEGATIVE_INFINITY)).toBeNull();
    expect(ghsToPesewas(1e15)).toBeNull();
    expect(ghsToPesewas('10' as unknown as number)).toBeNull();
  });

  it('keeps the sign and never returns -0', () => {
    expect(ghsToPesewas(-2.5)).toBe(-250);
    expect(Object.is(ghsToPesewas(-0), 0)).toBe(true);
  });

  it('round-trips every integer pesewa amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (p) => {
        expect(ghsToPesewas(pesewasToGhs(p))).toBe(p === 0 ? 0 : p);
      }),
    );
  });

  it('round-trips decimal text with 2 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const text = `${whole}.${String(cents).padStart(2, '0')}`;
        expect(ghsToPesewas(Number(text))).toBe(whole * 100 + cents);
      }),
    );
  });
});
