import { describe, expect, it } from 'vitest';
import { isGsm7, segmentsOf } from './segments.ts';

describe('SMS segments', () => {
  it('counts GSM-7 texts at 160 a segment, then 153', () => {
    expect(segmentsOf('a'.repeat(160))).toEqual({ encoding: 'gsm7', units: 160, segments: 1 });
    expect(segmentsOf('a'.repeat(161))).toEqual({ encoding: 'gsm7', units: 161, segments: 2 });
    expect(segmentsOf('a'.repeat(306)).segments).toBe(2);
    expect(segmentsOf('a'.repeat(307)).segments).toBe(3);
  });

  it("counts the extension table's characters twice", () => {
    expect(segmentsOf('€'.repeat(80))).toEqual({ encoding: 'gsm7', units: 160, segments: 1 });
    expect(segmentsOf(`${'a'.repeat(159)}[`).segments).toBe(2);
  });

  it('falls back to UCS-2 for any other character (the Twi and Ga vowels ɛ and ɔ among them)', () => {
    expect(isGsm7('Meda wo ase')).toBe(true);
    expect(isGsm7('Medaase ɛ')).toBe(false);
    expect(segmentsOf('ɔ'.repeat(70))).toEqual({ encoding: 'ucs2', units: 70, segments: 1 });
    expect(segmentsOf('ɔ'.repeat(71)).segments).toBe(2);
    expect(segmentsOf('ɔ'.repeat(135)).segments).toBe(3);
  });
});
