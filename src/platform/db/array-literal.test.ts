import { describe, expect, it } from 'vitest';
import { arrayLiteral, withArrayLiterals } from './array-literal.ts';

describe('array parameters as PostgreSQL literals', () => {
  it('passes plain elements as they are and quotes only what PostgreSQL would read otherwise', () => {
    expect(arrayLiteral(['vendor:ven_1', 'pout_01ABC', 'a-b.c@d'])).toBe(
      '{vendor:ven_1,pout_01ABC,a-b.c@d}',
    );
    expect(
      arrayLiteral([
        '',
        'NULL',
        'null',
        'a,b',
        '{x}',
        'a b',
        'tab\there',
        'say "hi"',
        'back\\slash',
      ]),
    ).toBe('{"","NULL","null","a,b","{x}","a b","tab\there","say \\"hi\\"","back\\\\slash"}');
    expect(arrayLiteral([1500, -42, 9007199254740993n, true, null, undefined])).toBe(
      '{1500,-42,9007199254740993,true,NULL,NULL}',
    );
    expect(arrayLiteral([])).toBe('{}');
  });

  it('leaves dates, buffers, objects and nested arrays to pg', () => {
    for (const odd of [[new Date(0)], [Buffer.from('x')], [{ a: 1 }], [['a'], ['b']]])
      expect(arrayLiteral(odd)).toBeUndefined();
    const date = [new Date(0)];
    expect(withArrayLiterals(['x', 1, date, ['a', 'b']])).toEqual(['x', 1, date, '{a,b}']);
  });

  it('writes a large batch as one flat string, not a chain of appended pieces', () => {
    // A run's batch: thousands of ids in one parameter (pg appended them one by one, alive as a whole until sent).
    const ids = Array.from({ length: 10_000 }, (_, i) => `pout_${String(i).padStart(6, '0')}`);
    const literal = arrayLiteral(ids)!;
    expect(literal.length).toBe(2 + ids.length * 11 + ids.length - 1);
    expect(literal.slice(0, 25)).toBe('{pout_000000,pout_000001,');
  });
});
