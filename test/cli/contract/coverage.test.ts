import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsage } from '../../../src/cli/args.ts';
import { commands, groups } from '../../../src/cli/commands/index.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';

/**
 * The routes of Fastify's printRoutes tree, as `METHOD /path`. Each line is a node: its indentation (four
 * characters a level) says whose child it is, its text continues the parent's path, and the methods it
 * answers follow in parentheses (none on a node that only joins its children).
 */
export function routesOf(tree: string): string[] {
  const path: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!node) continue;
    path.length = node[1]!.length / 4;
    path.push(node[2]!);
    for (const method of node[3]?.split(', ') ?? []) routes.push(`${method} ${path.join('')}`);
  }
  return routes;
}

let p: TestPlatform;
beforeAll(async () => {
  // Every service and the operator API: the whole app, as `npm start` builds it.
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

describe('partner-admin covers the operator API', () => {
  it('reads the route tree (a check on the reader)', () => {
    const tree = [
      '└── /admin/v1/a (GET, POST)',
      '    ├── /:id (PATCH)',
      '    │   └── /x (POST)',
      '    └── b (DELETE)',
      '├── /other (GET)',
    ].join('\n');
    expect(routesOf(tree)).toEqual([
      'GET /admin/v1/a',
      'POST /admin/v1/a',
      'PATCH /admin/v1/a/:id',
      'POST /admin/v1/a/:id/x',
      'DELETE /admin/v1/ab',
      'GET /other',
    ]);
  });

  it('has a command for every /admin/v1 route the server registers, and none for a route it lacks', () => {
    const served = routesOf(p.app.printRoutes({ commonPrefix: false }))
      .filter((r) => r.split(' ')[1]!.startsWith('/admin/v1/'))
      .map((r) => r.replace(' /admin/v1', ' '));
    // The tree and the app's own registry agree, so neither can hide a route.
    expect(new Set(served)).toEqual(
      new Set(p.app.platform.adminRoutes.map((r) => `${r.method} ${r.url}`)),
    );
    expect(served.length).toBeGreaterThan(25);
    const mapped = new Set<string>(commands.map((c) => c.route));
    expect(
      served.filter((route) => !mapped.has(route)),
      'routes without a partner-admin command',
    ).toEqual([]);
    expect(
      [...mapped].filter((route) => !served.includes(route)),
      'commands for routes the server does not have',
    ).toEqual([]);
  });

  it('fills every path parameter from a positional of the same name, and reads every usage line', () => {
    const names = commands.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of commands) {
      expect(Object.keys(groups), c.name).toContain(c.name.split(' ')[0]);
      const spec = parseUsage(c.usage ?? '');
      const positionals = spec.positionals.map((x) => x.name);
      const params = [...c.route.matchAll(/:(\w+)/g)].map((m) => m[1]!.toUpperCase());
      expect(positionals.slice(0, params.length), c.name).toEqual(params);
      for (const name of Object.keys(c.help ?? {}))
        expect([...positionals, ...spec.options.map((o) => o.flag)], c.name).toContain(name);
      // The global options belong to the program: a command of its own by that name would never see its value.
      for (const o of spec.options)
        expect(['url', 'token', 'json', 'help', 'version'], c.name).not.toContain(o.flag);
    }
  });

  it('is listed in the operator docs, each command with its route', () => {
    const rows = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    for (const c of commands) {
      const row = rows.find((r) => r.includes(`\`${c.name} `) || r.includes(`\`${c.name}\``));
      expect(row, c.name).toBeDefined();
      expect(row, c.name).toContain(c.route);
    }
  });
});
