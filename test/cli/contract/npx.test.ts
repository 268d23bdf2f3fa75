import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { singlePass } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';

// `npx ppctl` and `npx partner-admin` in the repository run the commands `npm ci` linked (its prepare
// step), at once: no registry, nothing installed into npx's cache. Each run gets an empty npm cache
// and a registry that cannot be reached, so any fetch or install would fail or leave a trace.
const cache = mkdtempSync(join(tmpdir(), 'npx-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

// No database: the commands run the same in either pass, so one pass runs them.
describe.runIf(singlePass)('the repository commands through npx', () => {
  it('the root package.json names no bin: npx would install the repository into its cache to find it', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin).toBeUndefined();
  });

  it.each([
    ['ppctl', 'Usage: ppctl <command>'],
    ['partner-admin', 'Usage: partner-admin [options] [command]'],
  ])('npx --no-install %s --help runs the linked command, offline', (name, usage) => {
    const env = {
      ...process.env,
      npm_config_cache: cache,
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
    };
    const started = Date.now();
    const r = spawnSync('npx', ['--no-install', name, '--help'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    console.log(`npx ${name} --help: ${Date.now() - started} ms`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(usage);
    expect(existsSync(join(cache, '_npx'))).toBe(false);
  });
});
