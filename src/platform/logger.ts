import pino from 'pino';
import { prettyLine } from './pretty-log.ts';

/**
 * Lines gathered over one event-loop turn, written together in one call when the turn ends (and
 * whatever is pending when the process exits). A request that logs costs no write of its own: at a
 * high rate a turn's responses share one write, and at a low rate the one write is a plain system
 * call, not a hop to libuv's thread pool and back (which cost 50-80 µs of CPU per logged request).
 * A kill -9 loses at most the lines of the turn in progress.
 */
export function perTurn(sink: pino.DestinationStream): pino.DestinationStream {
  let pending = '';
  const flush = (): void => {
    if (!pending) return;
    const text = pending;
    pending = '';
    sink.write(text);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      if (!pending) setImmediate(flush);
      pending += line;
    },
  };
}

let stdoutSync: pino.DestinationStream | undefined;
let stdoutPerTurn: pino.DestinationStream | undefined;

/** Standard output written at once, one writer per process. */
const syncStdout = (): pino.DestinationStream =>
  (stdoutSync ??= pino.destination({ dest: 1, sync: true }));

/** Standard output through `perTurn`, one per process (every app and logger built in it shares it). */
export function jsonStdout(): pino.DestinationStream {
  stdoutPerTurn ??= perTurn(syncStdout());
  return stdoutPerTurn;
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
 * Where the process's log lines go: JSON written once per event-loop turn (jsonStdout), or lines for
 * a person written at once, so they keep their order with the start banner (coloured on a terminal,
 * unless NO_COLOR).
 */
export function logDestination(format: LogFormat): pino.DestinationStream {
  if (!humanLogs(format)) return jsonStdout();
  const out = syncStdout();
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
