import { parseArgs } from 'node:util';
import type { Options } from './command.ts';

/** Options of every command, accepted anywhere on the line: before the command's name or after it. */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies Options;

export interface Line {
  /** The global options given anywhere on the line. */
  globals: { json?: boolean; 'base-url'?: string; help?: boolean; version?: boolean };
  /** The words that are not options, in order: the command's name comes first. */
  words: string[];
  /** The line without its first `n` words (the command's name), for the command's own parse. */
  without(n: number): string[];
}

/**
 * Reads a line knowing only the global options. A command's own options are not known until its
 * name is found, so their values count as words here (`-f order.json`); the name comes before them.
 */
export function readLine(argv: string[]): Line {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options: GLOBAL_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const wordAt = tokens.flatMap((t) => (t.kind === 'positional' ? [t.index] : []));
  return {
    // Unknown options are in `values` too (as switches): the command's parse judges those.
    globals: Object.fromEntries(
      Object.entries(values).filter(([name]) => name in GLOBAL_OPTIONS),
    ) as Line['globals'],
    words: positionals,
    without: (n) => {
      const taken = new Set(wordAt.slice(0, n));
      return argv.filter((_, i) => !taken.has(i));
    },
  };
}

/** The candidate closest to `typed`, when it is close enough to be a slip (a letter or so per three). */
export function closest(typed: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = distance(typed, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
