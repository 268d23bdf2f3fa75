import { describe, expect, it } from 'vitest';
import { isSafeKey } from './storage.ts';

describe('storage keys', () => {
  it('accepts slash-separated segments of letters, digits, dots, dashes and underscores', () => {
    for (const key of ['proofs/dlv_01ABC/x-Y_z.jpg', 'a', 'a/b/c/d/e/f/g/h'])
      expect(isSafeKey(key), key).toBe(true);
  });

  it('refuses traversal, absolute paths, empty segments, odd characters and sheer length', () => {
    const bad = [
      '',
      '..',
      '../etc/passwd',
      'a/../b',
      'a/./b',
      '/abs',
      'a//b',
      'a/',
      '.hidden',
      'a\\b',
      'a\0b',
      'a b',
      'a/%2e%2e',
      'ä',
      'a/b/c/d/e/f/g/h/i',
      'x'.repeat(513),
      `${'x'.repeat(129)}`,
    ];
    for (const key of bad) expect(isSafeKey(key), JSON.stringify(key)).toBe(false);
  });
});
