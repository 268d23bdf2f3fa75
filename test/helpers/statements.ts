import type { MockInstance } from 'vitest';

/** The statements a spied `db.query` ran that match `pattern` (and whose parameters pass `about`). */
export function statements(
  spy: MockInstance<(sql: string, params?: readonly unknown[]) => unknown>,
  pattern: RegExp,
  about: (params: readonly unknown[] | undefined) => boolean = () => true,
): string[] {
  return spy.mock.calls
    .filter(([sql, params]) => pattern.test(sql) && about(params))
    .map(([sql]) => sql);
}
