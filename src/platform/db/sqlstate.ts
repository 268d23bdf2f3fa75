import { AppError, errors } from '../errors.ts';

interface PgLikeError {
  code?: string;
  constraint?: string;
  message?: string;
}

/** Unique constraints whose violation is a partner-facing answer, by constraint name. */
const UNIQUE_VIOLATIONS: Record<string, () => AppError> = {
  delivery_orders_reference_key: () =>
    errors.duplicateOrderReference(
      'An order with this order_reference already exists for this app; fetch it with orders.get.',
    ),
  delivery_orders_quote_key: () =>
    errors.quoteAlreadyUsed(
      'Another order already redeemed this quote_id; ask for a new estimate.',
    ),
  sales_reference_key: () =>
    errors.duplicateReference(
      'An order with this external_reference was already created; fetch it with orders.get.',
    ),
  operators_email_key: () =>
    errors.operatorEmailTaken(
      'An operator with this email already exists (emails compare without case).',
    ),
  couriers_phone_key: () =>
    errors.courierPhoneTaken('A courier with this phone number already exists.'),
  dispatch_assignments_active_key: () => errors.jobTaken('Another courier already holds this job.'),
};

const WALLET_FLOOR_SQLSTATE = 'PP402';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
]);

function constraintName(err: PgLikeError): string | undefined {
  if (err.constraint) return err.constraint;
  // PGlite reports the constraint only inside the message.
  return /unique constraint "([^"]+)"/.exec(err.message ?? '')?.[1];
}

/** True when the database cannot be reached or dropped the connection: nothing was changed. */
export function isConnectionError(err: unknown): boolean {
  const e = err as PgLikeError;
  if (
    typeof e?.code === 'string' &&
    (CONNECTION_CODES.has(e.code) ||
      e.code.startsWith('08') ||
      e.code === '57P01' ||
      e.code === '57P03')
  ) {
    return true;
  }
  const msg = e?.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/.test(
    msg,
  );
}

export function isRetryableTransactionError(err: unknown): boolean {
  const code = (err as PgLikeError)?.code;
  return code === '40001' || code === '40P01';
}

/** The one place where SQLSTATEs become platform errors; anything else passes through. */
export function translateDbError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const e = err as PgLikeError;
  // Raised by wallet_within_floor (migration 075) inside a guarded debit's statement.
  if (e?.code === WALLET_FLOOR_SQLSTATE)
    return errors.insufficientWalletBalance(
      'The wallet balance plus the credit limit does not cover this fee; top up the wallet.',
    );
  if (e?.code === '23505') {
    const name = constraintName(e);
    const factory = name ? UNIQUE_VIOLATIONS[name] : undefined;
    if (factory) return factory();
  }
  // Data exceptions (a NUL byte, an unencodable character, a value out of range): the input was
  // bad, whatever let it through, and nothing was written.
  if (typeof e?.code === 'string' && e.code.startsWith('22')) {
    return errors.validation(
      'A value in the request cannot be stored (invalid characters or out of range); nothing was changed.',
    );
  }
  // pg-pool's own error when every connection stayed busy for connectionTimeoutMillis: the database
  // answers, it is the pool that is full (a load burst), so the partner is not told it is down.
  if (/timeout exceeded when trying to connect/.test(e?.message ?? '')) {
    return Object.assign(
      errors.serviceUnavailable(
        'The database is busy right now (no connection came free in time); nothing was changed. Retry shortly.',
      ),
      { cause: err },
    );
  }
  if (isConnectionError(err)) {
    // The driver's error stays as the cause, for logs and for a process that cannot start.
    return Object.assign(
      errors.serviceUnavailable(
        'The database is unreachable right now; nothing was changed. Retry shortly.',
      ),
      { cause: err },
    );
  }
  if (isRetryableTransactionError(err)) {
    return errors.serviceUnavailable(
      'The request conflicted with concurrent work and was not applied; retry it.',
    );
  }
  return err;
}
