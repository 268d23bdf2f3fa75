/**
 * The regression guard: a suite's figures compared with the previous run's results file on this
 * machine (bench/results/<suite>.json, read before the run overwrites it). Figures are flat named
 * numbers saved under `figures` in the results file; a figure counts as a regression when it is
 * worse than the previous one by more than the tolerance (relative) and the floor (absolute), so
 * that noise on tiny figures (a 0.4 → 0.6 ms page) is not called one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { table } from './stats.ts';

export interface PreviousRun {
  generatedAt: string;
  commit: string;
  figures: Record<string, number>;
  /** The settings the figures were measured with (`figuresOf` in the results file). */
  of: string | undefined;
}

/** The figures of the last run of `suite` on this machine, or null (first run, or written before figures were saved). */
export function previousRun(suite: string): PreviousRun | null {
  try {
    const file = fileURLToPath(new URL(`../results/${suite}.json`, import.meta.url));
    const prev = JSON.parse(readFileSync(file, 'utf8')) as {
      generatedAt: string;
      revision: { commit: string; srcDirty: boolean } | null;
      figures?: Record<string, number>;
      figuresOf?: string;
    };
    if (!prev.figures) return null;
    const commit = prev.revision
      ? `${prev.revision.commit}${prev.revision.srcDirty ? ' with uncommitted src/ changes' : ''}`
      : '?';
    return { generatedAt: prev.generatedAt, commit, figures: prev.figures, of: prev.figuresOf };
  } catch {
    return null;
  }
}

export interface Guard {
  /** Worse by more than this share counts (0.25: 25%). */
  tolerance: number;
  /** ... and by more than this much in the figure's own unit. */
  floor: number;
  /** Which way is better. */
  better: 'lower' | 'higher';
  unit: string;
}

export interface Comparison {
  previous: { generatedAt: string; commit: string; of: string | undefined } | null;
  /** The settings of this run's figures: a previous run with others compares loosely. */
  of: string;
  regressions: string[];
  rows: Array<{ figure: string; previous: number | null; now: number; change: number | null }>;
}

/** Compares `now` (measured with the settings `of`) with the previous run's figures of the same names. */
export function compare(
  prev: PreviousRun | null,
  now: Record<string, number>,
  guard: Guard,
  of: string,
): Comparison {
  const rows = Object.entries(now).map(([figure, value]) => {
    const before = prev?.figures[figure];
    return {
      figure,
      previous: before ?? null,
      now: value,
      change: before === undefined || before === 0 ? null : value / before - 1,
    };
  });
  const worse = (r: (typeof rows)[number]) => {
    if (r.previous === null) return false;
    const delta = guard.better === 'lower' ? r.now - r.previous : r.previous - r.now;
    return delta > guard.floor && delta > Math.abs(r.previous) * guard.tolerance;
  };
  return {
    previous: prev ? { generatedAt: prev.generatedAt, commit: prev.commit, of: prev.of } : null,
    of,
    regressions: rows.filter(worse).map((r) => r.figure),
    rows,
  };
}

/** Prints the comparison: a table of changed figures and one verdict line. */
export function printComparison(suite: string, c: Comparison, guard: Guard): void {
  if (!c.previous) {
    console.log(
      `\nregression guard: no previous ${suite} run on this machine (bench/results/${suite}.json); this run becomes the reference.`,
    );
    return;
  }
  const pct = (x: number | null) =>
    x === null ? 'new' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}%`;
  console.log(
    `\n== regression guard: against the previous ${suite} run on this machine (${c.previous.generatedAt}, commit ${c.previous.commit}) ==`,
  );
  console.log(
    table(
      ['figure', `previous ${guard.unit}`, `now ${guard.unit}`, 'change', ''],
      c.rows.map((r) => [
        r.figure,
        r.previous === null ? '-' : String(r.previous),
        String(r.now),
        pct(r.change),
        c.regressions.includes(r.figure) ? 'WORSE' : '',
      ]),
    ),
  );
  if (c.previous.of !== c.of)
    console.log(
      `note: the previous run measured with other settings (${c.previous.of ?? 'not recorded'}; this one ${c.of}): compare loosely.`,
    );
  const rule = `worse by more than ${(guard.tolerance * 100).toFixed(0)}% and ${guard.floor} ${guard.unit}`;
  console.log(
    c.regressions.length === 0
      ? `regression guard: no figure is ${rule} than the previous run: PASS`
      : `regression guard: ${c.regressions.length} figure(s) ${rule} than the previous run: ${c.regressions.join(', ')} (on a shared machine, rerun before believing it)`,
  );
}
