import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/process.ts';

/**
 * `src/flows/` is the only place where one module reacts to another's event. A hook is a method a
 * module declares for others to register on (`onMove(listener: MoveListener): void`, `proveWith`,
 * the courier app's `register(kind, handler)`); calling it from another module, the app or the web
 * layer hides a reaction where a newcomer will not look. A module may register on itself.
 */
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const rel = (p: string) => relative(SRC, p).split(sep).join('/');
const moduleOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1];

/** Hook registrars: methods of a module's classes that take a listener and return nothing. */
const HOOK_DECLARATION = /^\s+(on[A-Z]\w*|proveWith|register)\(([^)]*)\): void \{/gm;

export function hooksDeclared(
  files: ReadonlyArray<{ path: string; text: string }>,
): Map<string, string> {
  const hooks = new Map<string, string>();
  for (const { path, text } of files) {
    const module = moduleOf(path);
    if (!module) continue;
    for (const [, name, params] of text.matchAll(HOOK_DECLARATION)) {
      // `register` is a hook only where it takes a handler (the courier app's action kinds).
      if (name === 'register' && !/handler/i.test(params!)) continue;
      hooks.set(name!, module);
    }
  }
  return hooks;
}

/** Calls of a hook outside src/flows/ and outside the module that declares it. */
export function strayRegistrations(
  files: ReadonlyArray<{ path: string; text: string }>,
  hooks: Map<string, string>,
): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    if (path.startsWith('flows/')) continue;
    for (const [name, owner] of hooks) {
      // Fastify's own `app.register(plugin)` is no hook: only the courier app's actions are.
      const call =
        name === 'register' ? /\b\w*[aA]ctions\.register\(/g : new RegExp(`\\.${name}\\(`, 'g');
      if (call.test(text) && moduleOf(path) !== owner)
        out.push(`${path} registers on ${owner}'s ${name} (move it to a file in src/flows/)`);
    }
  }
  return out;
}

const files = sourceFiles(SRC).map((p) => ({ path: rel(p), text: readFileSync(p, 'utf8') }));

describe('cross-module flows', () => {
  const hooks = hooksDeclared(files);

  it("finds the modules' hooks (a sanity check on the reader)", () => {
    expect(Object.fromEntries(hooks)).toMatchObject({
      onMove: 'delivery',
      onPlace: 'delivery',
      onDeliver: 'dispatch',
      onAssign: 'dispatch',
      proveWith: 'dispatch',
      onHandover: 'cash',
      onPosition: 'couriers',
      register: 'couriers',
    });
  });

  it('registers every hook on another module in src/flows/ only', () => {
    expect(strayRegistrations(files, hooks)).toEqual([]);
  });

  it('gives each flow a test of its own under test/flows/', () => {
    const flows = readdirSync(join(SRC, 'flows')).filter((f) => f.endsWith('.ts'));
    expect(flows.length).toBeGreaterThan(10);
    const tests = ['unit', 'module', 'contract'].flatMap((tier) =>
      existsSync(join(ROOT, 'test', 'flows', tier))
        ? readdirSync(join(ROOT, 'test', 'flows', tier))
        : [],
    );
    expect(flows.filter((f) => !tests.includes(f.replace(/\.ts$/, '.test.ts')))).toEqual([]);
  });

  it('would catch a hook registered in a module or in the app', () => {
    const stray = [
      {
        path: 'modules/catalog/module.ts',
        text: 'delivery?.orders.onMove((tx, order) => sales.onDeliveryMove(tx, order));',
      },
      {
        path: 'app.ts',
        text: 'cash?.onHandover((tx, h) => payouts.runRequests.request(tx, h));\ncourierActions.register("accept", accept);',
      },
      { path: 'modules/couriers/actions.ts', text: 'actions.register("duty", duty);' },
      { path: 'flows/sale-settles-on-delivery.ts', text: 'delivery.orders.onMove(listener);' },
    ];
    expect(strayRegistrations(stray, hooks)).toEqual([
      "modules/catalog/module.ts registers on delivery's onMove (move it to a file in src/flows/)",
      "app.ts registers on cash's onHandover (move it to a file in src/flows/)",
      "app.ts registers on couriers's register (move it to a file in src/flows/)",
    ]);
  });
});
