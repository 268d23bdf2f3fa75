import { readFileSync } from 'node:fs';
import type { ParseArgsConfig } from 'node:util';
import type { PartnerClient } from '../client.ts';
import type { PartnerApiError } from '../errors.ts';
import type { LatLng } from '../types.ts';
import { DEFAULT_BASE_URL } from './config.ts';
import type { Io } from './output.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Ctx {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
  io: Io;
  /** The signed client from the stored config and env vars; a usage error when unconfigured. */
  client: () => PartnerClient;
}

export interface Command {
  /** The words that select it, e.g. `orders create`. */
  name: string;
  /** Arguments and options after the name, e.g. `-f FILE`. */
  usage: string;
  summary: string;
  /** Further help lines (options, formats). */
  help?: string[];
  options?: Options;
  /** Minimum and maximum positional arguments (default none). */
  args?: [number, number];
  /** A hint printed under an API error of this command (what to do instead), when it has one. */
  hint?: (err: PartnerApiError, ctx: Ctx) => string | undefined;
  /** Answers the exit code (default 0). */
  // biome-ignore lint/suspicious/noConfusingVoidType: most commands return nothing; the few with an exit code return a number
  run(ctx: Ctx): Promise<number | void>;
}

/**
 * The command's name. Not `partner`: an unrelated npm package has that name, so `npx partner` outside
 * a project that installs this one would run it.
 */
export const CLI = 'ppctl';

/** Wrong invocation: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

export const str = (ctx: Ctx, name: string): string | undefined => {
  const v = ctx.values[name];
  return typeof v === 'string' ? v : undefined;
};

/** An http(s) URL without its trailing slashes; anything else is a usage error naming the flag. */
export function checkUrl(value: string, flag: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, e.g. ${DEFAULT_BASE_URL}`);
  }
  return value.replace(/\/+$/, '');
}

/** A command's subject, by its id (the positional) or by `--reference`: exactly one of them. */
export function idOrReference(
  ctx: Ctx,
  usage: string,
): { id: string; reference?: undefined } | { id?: undefined; reference: string } {
  const reference = str(ctx, 'reference');
  const [id] = ctx.positionals;
  if ((id === undefined) === (reference === undefined))
    throw new UsageError(`give either ${usage}`);
  return id !== undefined ? { id } : { reference: reference! };
}

/**
 * For a command that takes an id (`dlv_…`, `sale_…`): when the API found nothing and the value given
 * is not shaped like such an id, it was most likely the partner's own reference, which `lookup`
 * finds with `--reference`.
 */
export function referenceHint(
  prefix: string,
  notFound: string,
  lookup: string,
): NonNullable<Command['hint']> {
  return (err, ctx) => {
    const [value] = ctx.positionals;
    if (err.code !== notFound || value === undefined || value.startsWith(prefix)) return undefined;
    const quoted = /^[\w.:/-]+$/.test(value) ? value : JSON.stringify(value);
    return `"${value}" is not an id of ours (those start with ${prefix}); to look it up by your reference: ${CLI} ${lookup} --reference ${quoted}`;
  };
}

/** `5.6037,-0.187` into {lat, lng}. */
export function parseLatLng(text: string, flag: string): LatLng {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) throw new UsageError(`--${flag} must be LAT,LNG in decimal degrees, e.g. 5.6037,-0.1870`);
  return { lat: Number(m[1]), lng: Number(m[2]) };
}

export function parseNumber(
  text: string,
  flag: string,
  opts: { integer?: boolean; min?: number } = {},
): number {
  const n = Number(text);
  if (
    text.trim() === '' ||
    !Number.isFinite(n) ||
    (opts.integer && !Number.isInteger(n)) ||
    (opts.min !== undefined && n < opts.min)
  ) {
    throw new UsageError(
      `${flag} must be ${opts.integer ? 'a whole number' : 'a number'}${opts.min !== undefined ? ` of at least ${opts.min}` : ''}`,
    );
  }
  return n;
}

/** A file named by the user, `-` for stdin; unreadable input is a usage error. */
export function readInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

export function parseJsonInput(path: string): unknown {
  const text = readInput(path);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The JSON object in the file named by `-f` (required); `what` names it in errors, e.g. `one order object`. */
export function requestBodyFile(ctx: Ctx, what: string): object {
  const file = str(ctx, 'file');
  if (!file) throw new UsageError('-f FILE is required');
  const body = parseJsonInput(file);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new UsageError(`${file} must hold ${what}`);
  return body;
}
