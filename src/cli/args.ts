import { Argument, InvalidArgumentError, Option, type Command as Cli } from 'commander';

/**
 * A command's arguments are declared by its usage line, which commander then parses and prints in help:
 *
 *   'PARTNER_ID --name NAME [--limit N] [--credit-limit GHS] [--env staging|production] [--scopes SCOPE,...] [--image URL...] [--default-limits]'
 *
 * - an UPPER_CASE word before the options is a positional argument (required; optional inside [ ]);
 * - `--flag VALUE` takes a value (required; optional inside [ ]), `--flag` alone is a switch: the word right
 *   after a flag is always its value placeholder, so positionals come first;
 * - the value's placeholder decides its type: `N` a whole number, `GHS` an amount, `LAT`, `LNG` and `RATE`
 *   a number, `a|b` one of those words, `X,...` a comma-separated list, `X...` a flag that may be repeated,
 *   anything else a string.
 * `[a | b]` only documents alternatives: the command's payload builder checks combinations.
 */

export type Value = string | number | boolean | string[] | undefined;
/** Parsed arguments: positionals by placeholder (`PARTNER_ID`), options by flag name (`credit-limit`). */
export type Args = Readonly<Record<string, Value>>;

/** Bad command line found after parsing (a combination of options): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Missing or bad configuration (token, URL, database): exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Kind =
  | { type: 'string' | 'int' | 'amount' | 'number' | 'list' | 'repeat' | 'switch' }
  | { type: 'choice'; choices: string[] };

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

const NUMBERS = new Set(['LAT', 'LNG', 'RATE']);

function kindOf(placeholder: string | undefined): Kind {
  if (placeholder === undefined) return { type: 'switch' };
  if (placeholder === 'N') return { type: 'int' };
  if (placeholder === 'GHS') return { type: 'amount' };
  if (NUMBERS.has(placeholder)) return { type: 'number' };
  if (placeholder.endsWith(',...')) return { type: 'list' };
  if (placeholder.endsWith('...')) return { type: 'repeat' };
  if (placeholder.includes('|')) return { type: 'choice', choices: placeholder.split('|') };
  return { type: 'string' };
}

/** Reads a usage line into the positionals and options it declares. */
export function parseUsage(usage: string): UsageSpec {
  const spec: UsageSpec = { positionals: [], options: [] };
  const words = usage
    .replace(/([[\]])/g, ' $1 ')
    .split(/\s+/)
    .filter(Boolean);
  let depth = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '[') depth++;
    else if (word === ']') depth--;
    else if (word === '|') continue;
    else if (word.startsWith('--')) {
      const next = words[i + 1];
      const placeholder =
        next !== undefined && !['[', ']', '|'].includes(next) && !next.startsWith('--')
          ? next
          : undefined;
      if (placeholder !== undefined) i++;
      spec.options.push({
        flag: word.slice(2),
        placeholder,
        required: depth === 0,
        kind: kindOf(placeholder),
      });
    } else if (/^[A-Z][A-Z0-9_]*$/.test(word)) {
      spec.positionals.push({ name: word, required: depth === 0 });
    } else {
      throw new Error(`cannot read usage word "${word}" in "${usage}"`);
    }
  }
  return spec;
}

/** A decimal number (a whole one when `whole`), or undefined when the text is not one. */
export function readNumber(raw: string, whole: boolean): number | undefined {
  const value = Number(raw);
  if (!/^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(raw) || (whole && !Number.isInteger(value)))
    return undefined;
  return value;
}

/** Turns the raw text of an option into its value; commander reports the thrown message with the option. */
function parser(kind: Kind): ((raw: string, previous: unknown) => Value) | undefined {
  const numeric = (whole: boolean, problem: string) => (raw: string) => {
    const value = readNumber(raw, whole);
    if (value === undefined) throw new InvalidArgumentError(problem);
    return value;
  };
  switch (kind.type) {
    case 'int':
      return numeric(true, 'Needs a whole number.');
    case 'amount':
      return numeric(false, 'Needs an amount in GHS, e.g. 250 or 99.50.');
    case 'number':
      return numeric(false, 'Needs a number.');
    case 'choice':
      // Checked here rather than with commander's choices(), whose help would repeat the placeholder's list.
      return (raw) => {
        if (!kind.choices.includes(raw))
          throw new InvalidArgumentError(`Must be one of ${kind.choices.join(', ')}.`);
        return raw;
      };
    case 'list':
      return (raw) =>
        raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
    case 'repeat':
      return (raw, previous) => [...((previous as string[] | undefined) ?? []), raw];
    default:
      return undefined;
  }
}

function optionOf(o: OptionSpec, help: string | undefined): Option {
  const shown = o.kind.type === 'repeat' ? o.placeholder!.slice(0, -3) : o.placeholder;
  const option = new Option(
    `--${o.flag}${shown ? ` <${shown}>` : ''}`,
    `${help ?? ''}${o.kind.type === 'repeat' ? ' (repeatable)' : ''}`.trim(),
  );
  const parse = parser(o.kind);
  if (parse) option.argParser(parse);
  if (o.required) option.makeOptionMandatory();
  return option;
}

/**
 * Declares a usage line's positionals and options on a commander command, with their help, and answers the
 * reader that turns commander's parsed values back into Args (options by flag name, positionals by name).
 */
export function declare(
  cli: Cli,
  usage: string,
  help: Record<string, string> = {},
): (positionals: unknown[], opts: Record<string, unknown>) => Args {
  const spec = parseUsage(usage);
  for (const p of spec.positionals)
    cli.addArgument(new Argument(p.required ? `<${p.name}>` : `[${p.name}]`, help[p.name]));
  const options = spec.options.map((o) => {
    const option = optionOf(o, help[o.flag]);
    cli.addOption(option);
    return [o.flag, option.attributeName()] as const;
  });
  return (positionals, opts) => {
    const args: Record<string, Value> = {};
    spec.positionals.forEach((p, i) => (args[p.name] = positionals[i] as Value));
    for (const [flag, attribute] of options) args[flag] = opts[attribute] as Value;
    return args;
  };
}
