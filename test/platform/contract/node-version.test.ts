import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE_LINES } from '../../../src/platform/node-version.ts';
import { singlePass } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';

// A Node.js older than the supported lines: the machine's /usr/bin/node (Debian's Node 20), or OLD_NODE.
const OLD_NODE = process.env.OLD_NODE ?? '/usr/bin/node';
const oldVersion = (() => {
  const r = spawnSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  const version = r.status === 0 ? r.stdout.trim() : undefined;
  if (!version || Number.parseInt(version, 10) >= 22)
    console.warn(`NOTICE: no Node.js older than 22 at ${OLD_NODE}: the real spawns are skipped`);
  return version && Number.parseInt(version, 10) < 22 ? version : undefined;
})();

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

// The processes are given their whole environment, the same in either pass: one pass runs them.
describe.runIf(singlePass)('an unsupported Node.js', () => {
  it('.nvmrc names a supported line, package.json requires 22 or later, and npm refuses other versions', () => {
    expect(SUPPORTED_NODE_LINES).toContain(Number(read('.nvmrc').trim()));
    for (const pkg of [
      'package.json',
      'packages/sdk/package.json',
      'packages/protocol/package.json',
    ])
      expect(JSON.parse(read(pkg)).engines).toEqual({ node: '>=22' });
    expect(read('.npmrc')).toMatch(/^engine-strict=true$/m);
  });

  it
    .skipIf(!oldVersion)
    .each(['dist/server.js', 'dist/worker.js', 'bin/partner-admin.mjs migrate'])(
    '%s stops with one line naming the supported versions',
    (script) => {
      const r = spawnSync(OLD_NODE, script.split(' '), {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'memory:', PORT: '0' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect([r.status, r.stdout, r.stderr]).toEqual([
        1,
        '',
        `Node.js ${oldVersion} is too old: the Partner Platform runs on Node.js 22 or 24 (install 24, e.g. \`nvm install\`, which reads .nvmrc).\n`,
      ]);
    },
  );

  it.skipIf(!oldVersion)('ppctl stops with one line too (exit 2, a set-up problem)', () => {
    const r = spawnSync(OLD_NODE, ['packages/sdk/bin/ppctl.mjs', 'health'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `ppctl needs Node.js 22 or later; this is Node.js ${oldVersion}.\n`,
    ]);
  });
});
