import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { freePort, ROOT } from '../../helpers/process.ts';

// The public edge: deploy/haproxy.cfg admits exactly the public paths docs/deployment.md lists, and
// every route the server has is either one of them or for operators only (the operator API, the
// console, metrics, probes, development outboxes). With haproxy installed (CI installs it), the
// config also runs in front of a real server.

const CONFIG = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
const OPERATORS_ONLY = ['/admin/', '/console', '/metrics', '/healthz', '/readyz', '/dev/'];

/** The patterns of one ACL line of the public frontend. */
const acl = (name: string): string[] =>
  new RegExp(`^\\s*acl ${name} path(?:_beg)? (.+)$`, 'm').exec(CONFIG)![1]!.trim().split(/\s+/);
const exact = acl('public_page');
const prefixes = acl('public_area');
/** What the public frontend forwards, as haproxy decides it (`path` is exact, `path_beg` a prefix). */
const admitted = (path: string) => exact.includes(path) || prefixes.some((p) => path.startsWith(p));

/** Every route path of a running app, from Fastify's route tree (children continue their parent's path). */
function routePaths(tree: string): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)[├└]── (\S+)( \(.+\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack[depth] = (depth === 0 ? '' : stack[depth - 1]!) + m[2]!;
    if (m[3]) paths.push(stack[depth]!);
  }
  return paths;
}

/** The paths in the first column of docs/deployment.md's table of public paths. */
function documented(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
  const table = doc.split('\n| path | for |\n')[1]!.split('\n\n')[0]!;
  return [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) =>
    [...row[1]!.matchAll(/`([^`]+)`/g)].map((x) => x[1]!),
  );
}

const bare = (path: string) => (path === '/' ? path : path.replace(/\/$/, ''));

let p: TestPlatform;
let routes: string[];

beforeAll(async () => {
  p = await startPlatform();
  routes = routePaths(p.app.printRoutes({ commonPrefix: false }));
});
afterAll(async () => {
  await p?.close();
});

describe('the public edge', () => {
  it('reads the server routes', () => {
    expect(routes.length).toBeGreaterThan(150);
    expect(routes).toEqual(
      expect.arrayContaining([
        '/api/v1/delivery/orders.create',
        '/admin/v1/partners',
        '/console/sign-in',
        '/courier/sign-in/code',
        '/track/:token',
        '/sign-out-everywhere',
      ]),
    );
  });

  it('haproxy forwards every public route and none for operators only', () => {
    const operatorsOnly = (path: string) =>
      OPERATORS_ONLY.some((o) => path === o || path.startsWith(o.endsWith('/') ? o : `${o}/`));
    expect(routes.filter((r) => !operatorsOnly(r) && !admitted(r))).toEqual([]);
    expect(routes.filter((r) => operatorsOnly(r) && admitted(r))).toEqual([]);
    expect(routes.filter((r) => operatorsOnly(r)).length).toBeGreaterThan(50);
  });

  it('docs/deployment.md lists exactly the paths haproxy forwards', () => {
    expect(new Set(documented().map(bare))).toEqual(new Set([...exact, ...prefixes].map(bare)));
  });

  it.skipIf(!haproxyInstalled())(
    'the config runs: the public door answers 404 itself for operator paths, the operators door forwards them',
    async () => {
      const [publicPort, operatorsPort] = [await freePort(), await freePort()];
      const serverPort = new URL(p.url).port;
      const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
      // Free ports, the test's server as the one instance, and fewer connections (maxconn needs twice as
      // many file descriptors as this machine may allow).
      const config = CONFIG.replace(/^(\s*)maxconn \d+$/m, '$1maxconn 1000')
        .replace('bind 127.0.0.1:8080', `bind 127.0.0.1:${publicPort}`)
        .replace('bind 127.0.0.1:8090', `bind 127.0.0.1:${operatorsPort}`)
        .replace(/^ {2}server api1 .*$/m, `  server api1 127.0.0.1:${serverPort} check`)
        .replace(/^ {2}server api2 .*$/m, '');
      writeFileSync(join(dir, 'haproxy.cfg'), config);
      const haproxy = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], {
        stdio: 'ignore',
      });
      try {
        // Whether a request reached the server: every answer of the server carries its request id.
        const reaches = async (port: number, path: string) =>
          (await fetch(`http://127.0.0.1:${port}${path.replace(/:\w+/g, 'x')}`)).headers.has(
            'x-request-id',
          );
        await expect
          .poll(() => reaches(publicPort, '/docs').catch(() => false), { timeout: 15_000 })
          .toBe(true);
        for (const route of routes)
          expect([route, await reaches(publicPort, route)]).toEqual([route, admitted(route)]);
        for (const path of ['/admin/v1/partners', '/console', '/console/sign-in', '/metrics'])
          expect([path, await reaches(operatorsPort, path)]).toEqual([path, true]);
      } finally {
        haproxy.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

function haproxyInstalled(): boolean {
  const found = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
  if (!found && process.env.REQUIRE_HAPROXY)
    throw new Error('REQUIRE_HAPROXY is set but haproxy is missing (apt-get install haproxy)');
  if (!found)
    console.warn(
      'NOTICE: haproxy is not installed: deploy/haproxy.cfg is checked by its ACLs only',
    );
  return found;
}
