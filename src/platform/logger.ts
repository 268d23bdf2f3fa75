import pino from 'pino';
import { prettyLine } from './pretty-log.ts';

/**
 * Standard output, written asynchronously: a log line never blocks the request that wrote it
 * (writes in flight are coalesced), and what is buffered is flushed when the process exits.
 */
export function asyncStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Whether log lines are for a person: LOG_FORMAT=pretty, or unset (auto) when standard output is a terminal. */
export function humanLogs(
  format: LogFormat,
  stdout: { isTTY?: boolean } = process.stdout,
): boolean {
  return format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
}

/**
 * Where the process's log lines go: JSON written asynchronously, or lines for a person written at
 * once, so they keep their order with the start banner (coloured on a terminal, unless NO_COLOR).
 */
export function logDestination(format: LogFormat): pino.DestinationStream {
  if (!humanLogs(format)) return asyncStdout();
  const out = pino.destination({ dest: 1, sync: true });
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => void out.write(prettyLine(line, colour)) };
}

/** What services and jobs log through: pino's calling shape, so they need no Fastify types. */
export interface Logger {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

const MAX_CAUSES = 3;

export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  cause?: SerializedError;
}

/**
 * An error's own words, in one line. A connection to a name with several addresses fails with an
 * AggregateError whose message is empty: its parts say what happened.
 */
export function errorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.message) return err.message;
  if (err instanceof AggregateError && err.errors.length > 0)
    return [...new Set(err.errors.map(errorMessage))].join('; ');
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : err.name;
}

/**
 * Pino's `err` serializer: name, message, code, stack and the chain of causes. Unlike pino's
 * stdSerializers it copies no other property, because database errors carry the query and its
 * parameters (phone numbers among them) in theirs.
 */
export function serializeError(err: unknown, depth = 0): SerializedError {
  // Something thrown that is not an Error has no stack to show.
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const code = (err as { code?: unknown }).code;
  const out: SerializedError = {
    type: err.name,
    message: errorMessage(err),
    stack: err.stack ?? '',
  };
  if (typeof code === 'string') out.code = code;
  if (err.cause !== undefined && depth < MAX_CAUSES)
    out.cause = serializeError(err.cause, depth + 1);
  return out;
}
