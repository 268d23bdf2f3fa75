import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { translateDbError } from './sqlstate.ts';

const pgError = (fields: { code?: string; message?: string; constraint?: string }) =>
  Object.assign(new Error(fields.message ?? 'error'), fields);

function answer(err: unknown) {
  const translated = translateDbError(err);
  return translated instanceof AppError
    ? { status: translated.statusCode, code: translated.code, message: translated.message }
    : translated;
}

describe('translateDbError', () => {
  it('tells a full pool (a load burst) apart from a database that cannot be reached', () => {
    const busy = answer(new Error('timeout exceeded when trying to connect'));
    expect(busy).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect((busy as { message: string }).message).toMatch(/^The database is busy right now/);

    for (const down of [
      pgError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }),
      pgError({ code: '57P01', message: 'terminating connection due to administrator command' }),
      new Error('Connection terminated due to connection timeout'),
    ]) {
      expect(answer(down)).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is unreachable right now; nothing was changed. Retry shortly.',
      });
    }
  });

  it('answers a conflict with concurrent work as retryable, bad values as validation, named unique keys by their code', () => {
    expect(answer(pgError({ code: '40P01' }))).toMatchObject({ status: 503 });
    expect(answer(pgError({ code: '22P05' }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    expect(
      answer(pgError({ code: '23505', constraint: 'delivery_orders_reference_key' })),
    ).toMatchObject({ status: 409, code: 'DUPLICATE_ORDER_REFERENCE' });
    // PGlite names the constraint only in its message.
    expect(
      answer(
        pgError({
          code: '23505',
          message: 'duplicate key value violates unique constraint "couriers_phone_key"',
        }),
      ),
    ).toMatchObject({ code: 'COURIER_PHONE_TAKEN' });
  });

  it('passes anything else through, for the error handler to log as unexpected', () => {
    const other = pgError({ code: '23505', constraint: 'some_other_key' });
    expect(translateDbError(other)).toBe(other);
  });
});
