import { errors } from '../../platform/errors.ts';
import { GATEWAYS, type ReportGateway } from './domain/report.ts';
import { ReportProblem } from './domain/table.ts';

/** Couriers' cash is reconciled as one more source beside the gateways, and so is money out (the transfer provider's statements). */
export const RIDER_CASH = 'rider_cash';
export const TRANSFERS = 'transfers';
export const SOURCES = [...GATEWAYS, RIDER_CASH, TRANSFERS] as const;
export type Source = (typeof SOURCES)[number];

/** A refused file as a 400 naming each problem's line. */
export function readOr400<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ReportProblem)
      throw errors.validation(
        `The ${what} cannot be imported, nothing was: ${err.message}.`,
        err.problems.map((issue) => ({ field: 'csv', issue })),
      );
    throw err;
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isGateway(value: string): value is ReportGateway {
  return (GATEWAYS as readonly string[]).includes(value);
}

/** A real calendar day, YYYY-MM-DD, or a 400. */
export function checkedDay(day: string): string {
  const parsed = new Date(`${day}T00:00:00Z`);
  if (
    !DAY.test(day) ||
    Number.isNaN(parsed.getTime()) ||
    parsed.toISOString().slice(0, 10) !== day
  ) {
    throw errors.validation('Invalid date: must be a real day, YYYY-MM-DD.', [
      { field: 'date', issue: 'must be a real day, YYYY-MM-DD' },
    ]);
  }
  return day;
}
