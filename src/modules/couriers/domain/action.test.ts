import { describe, expect, it } from 'vitest';
import { readAction } from './action.ts';

const ID = '0b7c3a52-5f0e-4c8e-9d7a-6f1b2c3d4e5f';

describe('readAction', () => {
  it('reads a well-formed action (id lower-cased, payload defaulting to {})', () => {
    const read = readAction({ id: ID.toUpperCase(), kind: 'duty', at: '2026-11-24T10:00:00Z' });
    expect(read).toEqual({
      action: { id: ID, kind: 'duty', at: new Date('2026-11-24T10:00:00Z'), payload: {} },
    });
  });

  it.each([
    [null, 'JSON object'],
    [[], 'JSON object'],
    [{ id: 'nope', kind: 'duty', at: '2026-11-24T10:00:00Z' }, 'UUID'],
    [{ id: ID, kind: 'Duty!', at: '2026-11-24T10:00:00Z' }, 'kind'],
    [{ id: ID, kind: 'duty\u0000', at: '2026-11-24T10:00:00Z' }, 'kind'],
    [{ id: ID, kind: 'duty', at: 'yesterday' }, 'at'],
    [{ id: ID, kind: 'duty', at: 1e308 }, 'at'],
    [{ id: ID, kind: 'duty', at: '2026-11-24T10:00:00Z', payload: [1] }, 'payload'],
  ])('refuses %j', (body, word) => {
    const read = readAction(body);
    expect('problem' in read && read.problem).toContain(word);
  });
});
