/** Command-line options shared by the suites; each suite applies its own defaults. */
import { availableParallelism, cpus } from 'node:os';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type ScenarioName = 'embedded' | 'postgres';

export interface SuiteOptions {
  scenario: string | undefined;
  duration: string | undefined;
  rounds: string | undefined;
  requests: string | undefined;
  concurrency: string | undefined;
  /** Soak length in minutes (suite soak; --duration-min or --minutes). */
  durationMin?: string | undefined;
  /** Orders at the big size (suite scale). */
  orders?: string | undefined;
  /** Directory for V8 CPU profiles of the servers. */
  cpuProf: string | undefined;
}

export function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`--${name} must be a positive number (got "${raw}")`);
  return n;
}

/** The scenarios asked for with --scenario embedded|postgres|all (default all). */
export function scenarios(raw: string | undefined): ScenarioName[] {
  const value = raw ?? 'all';
  if (value === 'all') return ['embedded', 'postgres'];
  if (value === 'embedded' || value === 'postgres') return [value];
  throw new Error(`--scenario must be embedded, postgres or all (got "${value}")`);
}

export function machine() {
  return {
    node: process.version,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown CPU',
  };
}

/** The commit measured, and whether src/ had uncommitted changes (the code may move under a long run). */
function revision(): { commit: string; srcDirty: boolean } | null {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
      }).trim();
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      srcDirty: git('status', '--porcelain', '--', 'src', 'migrations') !== '',
    };
  } catch {
    return null;
  }
}

/**
 * Writes bench/results/<suite>.json; a profiled run (slowed by the profiler) goes to
 * <suite>.profiled.json so that it never replaces the real figures.
 */
export function writeResults(
  suite: string,
  profiled: boolean,
  payload: Record<string, unknown>,
): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${suite}${profiled ? '.profiled' : ''}.json`;
  writeFileSync(
    file,
    `${JSON.stringify({ suite, generatedAt: new Date().toISOString(), ...machine(), revision: revision(), ...payload }, null, 2)}\n`,
  );
  return file;
}
