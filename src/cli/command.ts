import { UsageError, type Args } from './args.ts';
import type { Route } from './http.ts';

/**
 * One operator command. Adding an operator API route is one entry in a table under commands/ (its usage line
 * declares the arguments, see args.ts) plus, optionally, a formatter; without one the answer is printed as a
 * generic block or table. test/cli/contract/coverage.test.ts fails while a route of the server has no command.
 */
export interface Command {
  /** `group command`, as typed. */
  name: string;
  summary: string;
  /** The operator API route it calls (below /admin/v1); its `:params` are filled from the positionals of the same name. */
  route: Route;
  /** Arguments after the command name; also the parsing spec (see args.ts). */
  usage?: string;
  /** The query (GET) or body (anything else) sent; throws UsageError for combinations of options that do not go together. */
  payload?: (a: Args) => unknown;
  /** Human-readable output of a successful answer (`--json` prints the answer itself). */
  show?: (body: any, a: Args) => string;
  /** A note for stderr after a success: what the operator may not expect of the result. */
  notice?: (a: Args) => string | undefined;
  /** One line of help per option or positional, by flag name or placeholder. */
  help?: Record<string, string>;
  /**
   * With `--wait` (declare it in the usage line): asks `route` again (its `:params` from the last answer's
   * fields of the same name) every second until `done`, showing `progress` meanwhile (a bar on a terminal,
   * a plain line each time it changes otherwise), then shows the last answer.
   */
  wait?: {
    route: Route;
    done: (body: any) => boolean;
    progress: (body: any) => { count: number; of: number; text: string };
  };
}

/** `on`/`off` switches as booleans; undefined when not given. */
export const onOff = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === 'on';

/** A paged list's hint for the next page, when there is one (`--after`, or the flag given, names where it starts). */
export function morePages(
  what: string,
  command: string,
  next: string | null | undefined,
  a: Args,
  flag = 'after',
): string {
  return next
    ? `\n\nMore ${what}: partner-admin ${command} --${flag} ${next}${a.limit ? ` --limit ${a.limit}` : ''}`
    : '';
}

/** `--lat` and `--lng` as coordinates: both or neither. */
export function coordinates(a: Args): { lat: number; lng: number } | undefined {
  if ((a.lat === undefined) !== (a.lng === undefined))
    throw new UsageError('--lat and --lng go together');
  return a.lat === undefined ? undefined : { lat: a.lat as number, lng: a.lng as number };
}
