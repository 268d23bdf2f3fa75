import { hash, randomBytes } from 'node:crypto';

/**
 * Sub-tables, chosen by the fingerprint's second word: each grows on its own, so a doubling copies
 * a 256th of the nonces (doubling one table that held a million blocked the event loop for 0.2-0.55 s).
 */
const SEGMENTS = 256;
/** Smallest sub-table; a generation starts at the size the last one needed, so a quiet process shrinks back. */
const MIN_SLOTS = 64;
/** 32-bit words per fingerprint: 128 bits. */
const WORDS = 4;

export type Fingerprint = Int32Array;

/** One open-addressed sub-table: linear probing, at most half full, a slot whose word 3 is 0 empty. */
class Segment {
  private slots: Int32Array;
  private mask: number;
  count = 0;

  constructor(expected: number) {
    let size = MIN_SLOTS;
    while (size < expected * 2) size *= 2;
    this.slots = new Int32Array(size * WORDS);
    this.mask = size - 1;
  }

  get bytes(): number {
    return this.slots.byteLength;
  }

  has(f: Fingerprint): boolean {
    return this.slots[this.probe(f) * WORDS + 3] !== 0;
  }

  /** One probe finds the fingerprint or the empty slot it goes in. */
  add(f: Fingerprint): boolean {
    const i = this.probe(f);
    if (this.slots[i * WORDS + 3] !== 0) return false;
    if ((this.count + 1) * 2 > this.mask + 1) {
      this.grow();
      place(this.slots, this.mask, f, 0);
    } else write(this.slots, i * WORDS, f, 0);
    this.count++;
    return true;
  }

  /** The fingerprint's slot, else the empty slot that ends its run of filled ones. */
  private probe(f: Fingerprint): number {
    const s = this.slots;
    for (let i = f[0]! & this.mask; ; i = (i + 1) & this.mask) {
      const at = i * WORDS;
      if (s[at + 3] === 0) return i;
      if (s[at] === f[0] && s[at + 1] === f[1] && s[at + 2] === f[2] && s[at + 3] === f[3])
        return i;
    }
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size * WORDS);
    for (let at = 0; at < old.length; at += WORDS)
      if (old[at + 3] !== 0) place(slots, size - 1, old, at);
    this.slots = slots;
    this.mask = size - 1;
  }
}

function place(s: Int32Array, mask: number, f: Int32Array, from: number): void {
  let i = f[from]! & mask;
  while (s[i * WORDS + 3] !== 0) i = (i + 1) & mask;
  write(s, i * WORDS, f, from);
}

function write(s: Int32Array, at: number, f: Int32Array, from: number): void {
  s[at] = f[from]!;
  s[at + 1] = f[from + 1]!;
  s[at + 2] = f[from + 2]!;
  s[at + 3] = f[from + 3]!;
}

/**
 * The nonces of one generation as 128-bit fingerprints in open-addressed tables of typed arrays.
 * A Set of strings kept each nonce as a JS string, a cons string and a set entry: about 575 bytes a
 * request, every one copied out of the young generation by the collector, and never released before
 * the nonce's TTL (at a partner's maximum rate, gigabytes). Here a nonce costs 16 bytes in a
 * table at most half full, outside the collector's heap.
 */
export class NonceTable {
  private readonly segments: Segment[];
  private count = 0;

  constructor(expected = 0) {
    this.segments = Array.from({ length: SEGMENTS }, () => new Segment(expected / SEGMENTS));
  }

  get size(): number {
    return this.count;
  }

  /** Bytes the table holds, for the memory it promises. */
  get bytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes, 0);
  }

  has(fingerprint: Fingerprint): boolean {
    return this.segmentOf(fingerprint).has(fingerprint);
  }

  /** Records a fingerprint; false when it was already there. */
  add(fingerprint: Fingerprint): boolean {
    if (!this.segmentOf(fingerprint).add(fingerprint)) return false;
    this.count++;
    return true;
  }

  private segmentOf(f: Fingerprint): Segment {
    // Word 3 marks a filled slot: a fingerprint without its low bit would be stored unseen, and its
    // replay admitted.
    if ((f[3]! & 1) === 0)
      throw new TypeError('a nonce fingerprint must have word 3 odd (see fingerprinter)');
    return this.segments[f[1]! & (SEGMENTS - 1)]!;
  }
}

/**
 * Fingerprints keyed by a salt of this process: SHA-256 of the salt, the key id and the nonce,
 * truncated to 128 bits. A fresh nonce that matches one seen before (a false replay) is about as
 * likely as guessing a 127-bit value, and without the salt nobody can choose nonces that crowd one slot.
 */
export function fingerprinter(salt: string = randomBytes(16).toString('hex')) {
  return (keyId: string, nonce: string): Fingerprint => {
    const digest = hash('sha256', `${salt}\u0000${keyId}\u0000${nonce}`, 'buffer');
    const words = new Int32Array(WORDS);
    for (let w = 0; w < WORDS; w++) words[w] = digest.readInt32LE(w * 4);
    words[3] = words[3]! | 1;
    return words;
  };
}
