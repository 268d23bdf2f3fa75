import { describe, expect, it } from 'vitest';
import { isLanguage, isSenderName } from './preferences.ts';

describe('sender names', () => {
  it.each(['Kente', 'KenteShop', 'Kente Shop', 'ABC12345678', 'a1'])('%j is one', (name) =>
    expect(isSenderName(name)).toBe(true),
  );
  it.each(['', 'KenteShop123', ' Kente', 'Kente ', '12345', 'Kente-Shop', 'Kenté', 'a\u0000b'])(
    '%j is not',
    (name) => expect(isSenderName(name)).toBe(false),
  );
});

describe('languages', () => {
  it('are en, tw and ga', () => {
    expect(['en', 'tw', 'ga'].every(isLanguage)).toBe(true);
    expect(isLanguage('fr')).toBe(false);
    expect(isLanguage('EN')).toBe(false);
  });
});
