import { describe, expect, it } from 'vitest';
import { errorMessage, perTurn, serializeError } from './logger.ts';

describe('error serialization for logs', () => {
  it("keeps an AggregateError's reason, which its own message leaves empty", () => {
    const err = Object.assign(
      new AggregateError(
        [
          new Error('connect ECONNREFUSED ::1:6379'),
          new Error('connect ECONNREFUSED 127.0.0.1:6379'),
        ],
        '',
      ),
      { code: 'ECONNREFUSED' },
    );
    expect(errorMessage(err)).toBe(
      'connect ECONNREFUSED ::1:6379; connect ECONNREFUSED 127.0.0.1:6379',
    );
    expect(serializeError(err)).toMatchObject({
      type: 'AggregateError',
      code: 'ECONNREFUSED',
      message: errorMessage(err),
    });
  });

  it('keeps the chain of causes', () => {
    const err = new Error('could not settle', {
      cause: new Error('gateway timed out', { cause: new Error('socket hang up') }),
    });
    expect(serializeError(err)).toMatchObject({
      message: 'could not settle',
      cause: { message: 'gateway timed out', cause: { message: 'socket hang up' } },
    });
  });

  it("copies no other property: a database error's detail holds the query's values", () => {
    const err = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      detail: 'Key (phone)=(0241234567) already exists.',
    });
    const out = serializeError(err);
    expect(out.code).toBe('23505');
    expect(JSON.stringify(out)).not.toContain('0241234567');
  });

  it('shows a thrown non-Error as its text', () => {
    expect(serializeError('boom')).toMatchObject({ type: 'string', message: 'boom' });
  });
});

describe('perTurn', () => {
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it("writes a turn's lines together in one write when the turn ends, never from the logging call", async () => {
    const writes: string[] = [];
    const out = perTurn({ write: (text) => writes.push(text) });
    out.write('{"a":1}\n');
    out.write('{"b":2}\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n']);
    out.write('{"c":3}\n');
    await nextTurn();
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n', '{"c":3}\n']);
  });
});
