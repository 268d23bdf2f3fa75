import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A command's arguments are declared by its usage line, which is also what help prints:
 *
 *   'PARTNER_ID --name NAME [--limit N] [--credit-limit GHS] [--env staging|production] [--scopes SCOPE,...] [--default-limits]'
 *
 * - an UPPER_CASE word before the options is a positional argument (required; optional inside [ ]);
 * - `--flag VALUE` takes a value (required; optional inside [ ]), `--flag` alone is a switch: the word right
 *   after a flag is always its value placeholder, so positionals come first;
 * - the value's placeholder decides its type: `N` a whole number, `GHS` an amount, `a|b` one of those words,
 *   `X,...` a comma-separated list, anything else a string.
 * `[a | b]` only documents alternatives: the command's request builder checks combinations.
 */

export type Value = string | number | boolean | string[] | undefined;
/** Parsed arguments: positionals by placeholder (`PARTNER_ID`), options by flag name (`credit-limit`). */
export type Args = Readonly<Record<string, Value>>;

/** Bad command line: exit code 2 with the usage text. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Missing or bad configuration (token, URL): exit code 2, without the usage text. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Kind = { type: 'string' } | { type: 'int' } | { type: 'amount' } | { type: 'list' } | { type: 'choice'; choices: string[] } | { type: 'switch' };

interface OptionSpec {
  flag: string;
  placeholder: string | undefined;
  required: boolean;
  kind: Kind;
}

export interface UsageSpec {
  positionals: { name: string; required: boolean }[];
  options: OptionSpec[];
}

function kindOf(placeholder: string | undefined): Kind {
  if (placeholder === undefined) return { type: 'switch' };
  if (placeholder === 'N') return { type: 'int' };
  if (placeholder === 'GHS') return { type: 'amount' };
  if (placeholder.endsWith(',...')) return { type: 'list' };
  if (placeholder.includes('|')) return { type: 'choice', choices: placeholder.split('|') };
  return { type: 'string' };
}

/** Reads a usage line into the positionals and options it declares. */
export function parseUsage(usage: string): UsageSpec {
  const spec: UsageSpec = { positionals: [], options: [] };
  const words = usage.replace(/([[\]])/g, ' $1 ').split(/\s+/).filter(Boolean);
  let depth = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '[') depth++;
    else if (word === ']') depth--;
    else if (word === '|') continue;
    else if (word.startsWith('--')) {
      const next = words[i + 1];
      const placeholder = next !== undefined && !['[', ']', '|'].includes(next) && !next.startsWith('--') ? next : undefined;
      if (placeholder !== undefined) i++;
      spec.options.push({ flag: word.slice(2), placeholder, required: depth === 0, kind: kindOf(placeholder) });
    } else if (/^[A-Z][A-Z0-9_]*$/.test(word)) {
      spec.positionals.push({ name: word, required: depth === 0 });
    } else {
      throw new Error(`cannot read usage word "${word}" in "${usage}"`);
    }
  }
  return spec;
}

function convert(option: OptionSpec, raw: string): Value {
  const name = `--${option.flag}`;
  switch (option.kind.type) {
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`${name} needs a whole number (got "${raw}")`);
      return Number(raw);
    }
    case 'amount': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${name} needs an amount in GHS, e.g. 250 or 99.50 (got "${raw}")`);
      return value;
    }
    case 'list':
      return raw.split(',').map((s) => s.trim()).filter(Boolean);
    case 'choice':
      if (!option.kind.choices.includes(raw)) throw new UsageError(`${name} must be one of ${option.kind.choices.join(', ')} (got "${raw}")`);
      return raw;
    default:
      return raw;
  }
}

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into usage errors. */
export function parseTokens(args: string[], options: ParseOptions, strict: boolean) {
  try {
    return parseArgs({ args, options, strict, allowPositionals: true, tokens: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/**
 * Parses a command's own words (after the group and command names) against its usage spec.
 * `globals` are accepted anywhere and returned as they are.
 */
export function parseCommand(spec: UsageSpec, args: string[], globals: ParseOptions): { args: Args; globals: Record<string, Value> } {
  const options: ParseOptions = { ...globals };
  for (const o of spec.options) options[o.flag] = { type: o.kind.type === 'switch' ? 'boolean' : 'string' };
  const parsed = parseTokens(args, options, true);
  const out: Record<string, Value> = {};
  const given = parsed.positionals;
  const max = spec.positionals.length;
  if (given.length > max) throw new UsageError(`unexpected argument "${given[max]}"`);
  spec.positionals.forEach((p, i) => {
    const value = given[i];
    if (value === undefined && p.required) throw new UsageError(`missing ${p.name}`);
    out[p.name] = value;
  });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const o of spec.options) {
    const raw = values[o.flag];
    if (raw === undefined) {
      if (o.required) throw new UsageError(`missing --${o.flag}${o.placeholder ? ` ${o.placeholder}` : ''}`);
      out[o.flag] = undefined;
    } else {
      out[o.flag] = typeof raw === 'boolean' ? raw : convert(o, raw);
    }
  }
  const globalValues: Record<string, Value> = {};
  for (const name of Object.keys(globals)) globalValues[name] = values[name];
  return { args: out, globals: globalValues };
}
