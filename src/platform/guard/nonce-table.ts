import { hash, randomBytes } from 'node:crypto';

/** Smallest table; a generation starts at the size the last one needed, so a quiet process shrinks back. */
const MIN_SLOTS = 1024;
/** 32-bit words per fingerprint: 128 bits. */
const WORDS = 4;

/**
 * The nonces of one generation as 128-bit fingerprints in an open-addressed table of typed arrays.
 * A Set of strings kept each nonce as a JS string, a cons string and a set entry: about 575 bytes a
 * request, every one copied out of the young generation by the collector, and never released before
 * the nonce's TTL (at a partner's maximum rate, gigabytes). Here a nonce costs 16 bytes in a
 * table at most half full, outside the collector's heap.
 *
 * The fingerprint is SHA-256 of a per-process random salt, the key id and the nonce, truncated to
 * 128 bits: a fresh nonce that matches one seen before (a false replay) is about as likely as
 * guessing a 128-bit key, and without the salt nobody can choose nonces that crowd one slot.
 */
export class NonceTable {
  private slots: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 0) {
    let size = MIN_SLOTS;
    while (size < expected * 2) size *= 2;
    this.slots = new Int32Array(size * WORDS);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes the table holds, for the memory it promises. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  has(fingerprint: Fingerprint): boolean {
    return this.find(fingerprint) >= 0;
  }

  /** Records a fingerprint; false when it was already there. */
  add(fingerprint: Fingerprint): boolean {
    if (this.find(fingerprint) >= 0) return false;
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    this.place(this.slots, this.mask, fingerprint, 0);
    this.count++;
    return true;
  }

  /** The slot's index when present, else -1 (linear probing: a run of filled slots ends at an empty one). */
  private find(f: Fingerprint): number {
    const s = this.slots;
    for (let i = f[0]! & this.mask; ; i = (i + 1) & this.mask) {
      const at = i * WORDS;
      if (s[at + 3] === 0) return -1; // word 3 is never 0 in a fingerprint: an empty slot
      if (s[at] === f[0] && s[at + 1] === f[1] && s[at + 2] === f[2] && s[at + 3] === f[3])
        return i;
    }
  }

  private place(s: Int32Array, mask: number, f: Int32Array, from: number): void {
    let i = f[from]! & mask;
    while (s[i * WORDS + 3] !== 0) i = (i + 1) & mask;
    const at = i * WORDS;
    s[at] = f[from]!;
    s[at + 1] = f[from + 1]!;
    s[at + 2] = f[from + 2]!;
    s[at + 3] = f[from + 3]!;
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size * WORDS);
    for (let at = 0; at < old.length; at += WORDS)
      if (old[at + 3] !== 0) this.place(slots, size - 1, old, at);
    this.slots = slots;
    this.mask = size - 1;
  }
}

export type Fingerprint = Int32Array;

/** Fingerprints keyed by a salt of this process: the same key and nonce give the same one. */
export function fingerprinter(salt: string = randomBytes(16).toString('hex')) {
  return (keyId: string, nonce: string): Fingerprint => {
    const digest = hash('sha256', `${salt}\u0000${keyId}\u0000${nonce}`, 'buffer');
    const words = new Int32Array(WORDS);
    for (let w = 0; w < WORDS; w++) words[w] = digest.readInt32LE(w * 4);
    words[3] = words[3]! | 1;
    return words;
  };
}
