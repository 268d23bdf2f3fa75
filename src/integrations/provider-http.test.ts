import { describe, expect, it } from 'vitest';
import { asObject, parseObject, providerWords } from './provider-http.ts';

describe('reading providers', () => {
  it('takes only a JSON object as an answer', () => {
    expect(parseObject('{"a":1}')).toEqual({ a: 1 });
    for (const text of ['[1]', 'null', '"x"', '7', 'not json', ''])
      expect(parseObject(text)).toBeNull();
    expect(asObject([])).toBeNull();
  });

  it("keeps a provider's words short and without our secrets", () => {
    expect(providerWords('bad key sk_live_1 and sk_live_1', ['sk_live_1'])).toBe(
      'bad key [redacted] and [redacted]',
    );
    expect(providerWords('x'.repeat(500), [])).toHaveLength(160);
    // An empty secret (an unset setting) must not blank out every gap between characters.
    expect(providerWords('plain', [''])).toBe('plain');
    expect(providerWords(42, ['s'])).toBe('');
    expect(providerWords('', ['s'])).toBe('');
  });
});
