import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/process.ts';

/**
 * The walls between modules, read from the source itself so they cannot erode silently:
 * - a module reaches another only through its public face (`src/modules/<name>/index.ts`);
 * - modules form no cycle;
 * - `src/platform/` and `src/shared/` import no module, no integration, and neither the app nor its config;
 * - `src/integrations/` imports no module;
 * - `src/web/` (the presentation layer) and `src/flows/` (one module's reactions to another's events)
 *   reach modules only through their public faces, and nothing but the app (`app.ts`, and
 *   `mount.ts`, which serves it over HTTP) imports `src/web/`;
 * - no module imports a flow or the app's composition (a module knows no app);
 * - files inside `src/web/` form no import cycle (a page's file never imports what imports it).
 */
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Every relative import of a file, resolved to a path under the repository. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith('.')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

const rel = (p: string) => relative(SRC, p).split(sep).join('/');
const moduleOf = (p: string) => /^modules\/([^/]+)\//.exec(rel(p))?.[1];
const layerOf = (p: string) => rel(p).split('/')[0]!;

interface Edge {
  from: string;
  to: string;
}

function edges(): Edge[] {
  return sourceFiles(SRC).flatMap((from) => importsOf(from).map((to) => ({ from, to })));
}

export function violations(all: Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of all) {
    const [a, b] = [moduleOf(from), moduleOf(to)];
    if (a && b && a !== b && rel(to) !== `modules/${b}/index.ts`)
      out.push(`${rel(from)} reaches into ${rel(to)} (use modules/${b}/index.ts)`);
    const layer = layerOf(from);
    if (layer === 'platform' || layer === 'shared') {
      if (b || layerOf(to) === 'integrations' || rel(to) === 'config.ts' || rel(to) === 'app.ts')
        out.push(`${rel(from)} (${layer}) imports ${rel(to)}`);
    }
    if (layer === 'integrations' && b) out.push(`${rel(from)} (integrations) imports ${rel(to)}`);
    if ((layer === 'web' || layer === 'flows') && b && rel(to) !== `modules/${b}/index.ts`)
      out.push(`${rel(from)} (${layer}) reaches into ${rel(to)} (use modules/${b}/index.ts)`);
    if (a && (layerOf(to) === 'flows' || ['composition.ts', 'context.ts'].includes(rel(to))))
      out.push(`${rel(from)} (a module) imports the app's ${rel(to)}`);
    if (layerOf(to) === 'web' && layer !== 'web' && !['app.ts', 'mount.ts'].includes(rel(from)))
      out.push(`${rel(from)} (${layer}) imports the presentation layer ${rel(to)}`);
  }
  return out;
}

/** Every cycle of a graph, each once, from its smallest node. */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const visit = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === path[0]) cycles.push([...path, next]);
      else if (!path.includes(next) && next > path[0]!) visit(next, [...path, next]);
    }
  };
  for (const start of graph.keys()) visit(start, [start]);
  return cycles;
}

export function moduleCycles(all: Edge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of all) {
    const [a, b] = [moduleOf(from), moduleOf(to)];
    if (a && b && a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
  }
  return cyclesOf(graph);
}

/** Import cycles between files under `src/<layer>/` (each cycle once, from its smallest file). */
export function fileCycles(all: Edge[], layer: string): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of all) {
    if (layerOf(from) === layer && layerOf(to) === layer)
      graph.set(rel(from), (graph.get(rel(from)) ?? new Set()).add(rel(to)));
  }
  return cyclesOf(graph);
}

/** Which module imports which, as `a → b`. */
export function moduleImports(all: Edge[]): string[] {
  const out = new Set<string>();
  for (const { from, to } of all) {
    const [a, b] = [moduleOf(from), moduleOf(to)];
    if (a && b && a !== b) out.add(`${a} → ${b}`);
  }
  return [...out].sort();
}

/** The module imports docs/architecture.md lists after "Today:" (`a → b, c; d → e`, notes in parentheses). */
function documentedImports(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const list = doc.slice(doc.indexOf('Today:') + 'Today:'.length).replace(/\([^)]*\)/g, '');
  const out: string[] = [];
  for (const part of list.slice(0, list.indexOf('.')).split(';')) {
    const [from, to] = part.split('→').map((s) => s.trim());
    for (const b of to!.split(',')) out.push(`${from} → ${b.trim()}`);
  }
  return out.sort();
}

describe('the import graph', () => {
  const all = edges();

  it('reads the source (a sanity check on the reader)', () => {
    expect(all.length).toBeGreaterThan(200);
    expect(all.some((e) => rel(e.from) === 'app.ts' && moduleOf(e.to) !== undefined)).toBe(true);
  });

  it('has no module reaching into another module, and no platform, shared or integration code importing a module or the config', () => {
    expect(violations(all)).toEqual([]);
  });

  it('is the one docs/architecture.md lists, module by module', () => {
    expect(documentedImports()).toEqual(moduleImports(all));
  });

  it('has no cycle between modules', () => {
    expect(moduleCycles(all)).toEqual([]);
  });

  it('has no import cycle between the files of src/web', () => {
    expect(fileCycles(all, 'web')).toEqual([]);
  });

  it('would catch each kind of breach', () => {
    const f = (p: string) => join(SRC, p);
    const breaches: Edge[] = [
      { from: f('modules/catalog/sales/service.ts'), to: f('modules/delivery/orders/service.ts') },
      { from: f('platform/db/index.ts'), to: f('config.ts') },
      { from: f('platform/http/operation.ts'), to: f('modules/delivery/index.ts') },
      { from: f('integrations/payments/index.ts'), to: f('modules/wallet/index.ts') },
      { from: f('web/dashboard/kit.ts'), to: f('modules/members/service.ts') },
      { from: f('modules/members/service.ts'), to: f('web/dashboard/kit.ts') },
      { from: f('platform/web/views.ts'), to: f('web/dashboard/index.ts') },
      { from: f('flows/sale-settles-on-delivery.ts'), to: f('modules/catalog/sales/service.ts') },
      { from: f('modules/dispatch/module.ts'), to: f('flows/courier-delivers-order.ts') },
    ];
    expect(violations(breaches)).toHaveLength(9);
    expect(
      moduleCycles([
        { from: f('modules/a/x.ts'), to: f('modules/b/index.ts') },
        { from: f('modules/b/y.ts'), to: f('modules/a/index.ts') },
      ]),
    ).toEqual([['a', 'b', 'a']]);
    // The circle the dashboard once had: kit → payouts → order-routes → kit.
    expect(
      fileCycles(
        [
          { from: f('web/dashboard/kit.ts'), to: f('web/dashboard/payouts.ts') },
          { from: f('web/dashboard/payouts.ts'), to: f('web/dashboard/order-routes.ts') },
          { from: f('web/dashboard/order-routes.ts'), to: f('web/dashboard/kit.ts') },
        ],
        'web',
      ),
    ).toEqual([
      [
        'web/dashboard/kit.ts',
        'web/dashboard/payouts.ts',
        'web/dashboard/order-routes.ts',
        'web/dashboard/kit.ts',
      ],
    ]);
  });
});
