import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprinter, NonceTable } from './nonce-table.ts';

const fp = fingerprinter('test-salt');

describe('NonceTable', () => {
  it('records a nonce once: the second add answers false', () => {
    const t = new NonceTable();
    expect(t.has(fp('key_1', 'n1'))).toBe(false);
    expect(t.add(fp('key_1', 'n1'))).toBe(true);
    expect(t.has(fp('key_1', 'n1'))).toBe(true);
    expect(t.add(fp('key_1', 'n1'))).toBe(false);
    expect(t.size).toBe(1);
  });

  it('tells keys apart, and the separator apart from the characters around it', () => {
    const t = new NonceTable();
    expect(t.add(fp('key_1', 'n1'))).toBe(true);
    expect(t.add(fp('key_2', 'n1'))).toBe(true);
    expect(t.add(fp('key_1n', '1'))).toBe(true);
    expect(t.add(fp('key_', '1n1'))).toBe(true);
  });

  it('keeps every nonce as it grows, with no false replay among 200,000, in at most 64 bytes each', () => {
    const t = new NonceTable();
    const nonces = Array.from({ length: 200_000 }, () => randomUUID());
    for (const n of nonces) expect(t.add(fp('key_1', n))).toBe(true);
    expect(t.size).toBe(200_000);
    for (const n of nonces.slice(0, 1000)) expect(t.add(fp('key_1', n))).toBe(false);
    expect(nonces.every((n) => t.has(fp('key_1', n)))).toBe(true);
    // At most half full (short probe runs), at least a quarter full after a doubling.
    expect(t.bytes).toBeGreaterThanOrEqual(200_000 * 16 * 2);
    expect(t.bytes).toBeLessThanOrEqual(200_000 * 16 * 4);
  });

  it('starts at the size it is told to expect, so a steady rate does not grow it again', () => {
    const t = new NonceTable(100_000);
    const start = t.bytes;
    for (let i = 0; i < 100_000; i++) t.add(fp('key_1', `nonce-${i}`));
    expect(t.bytes).toBe(start);
    expect(new NonceTable().bytes).toBeLessThan(start);
  });

  it('fingerprints by salt: the same salt gives the same fingerprint, another salt another', () => {
    const other = fingerprinter('other-salt');
    expect([...fp('key_1', 'n1')]).toEqual([...fingerprinter('test-salt')('key_1', 'n1')]);
    expect([...fp('key_1', 'n1')]).not.toEqual([...other('key_1', 'n1')]);
    // Word 3 marks a filled slot: its low bit is always set, and the table refuses one without it.
    for (let i = 0; i < 1000; i++) expect(fp('key_1', `n${i}`)[3]! & 1).toBe(1);
    const unmarked = fp('key_1', 'n1').slice();
    unmarked[3] = 0;
    expect(() => new NonceTable().add(unmarked)).toThrow(TypeError);
  });
});
