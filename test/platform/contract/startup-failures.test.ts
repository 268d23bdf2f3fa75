import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { singlePass } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';

/**
 * Runs one of the compiled processes (dist/, brought up to date by the tiers' global setup) with
 * only `env`, and answers its exit code and what it printed.
 */
function run(script: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, script.split(' '), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: 'memory:',
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, lines: r.stderr.split('\n').filter(Boolean) };
}

const UNREACHABLE_DB = 'postgres://platform:hunter2-secret@127.0.0.1:1/platform';

// Every process here is given its whole environment (an embedded or an unreachable database), the
// same in either pass: one pass runs them.
describe.runIf(singlePass)('a process that cannot start', () => {
  it('prints one line for a bad LOG_LEVEL, and no stack', () => {
    const r = run('dist/server.js', { LOG_LEVEL: 'loud' });
    expect(r.status).toBe(1);
    expect(r.lines).toEqual([
      'invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]);
  });

  it('prints one line for a LOG_FORMAT it does not know', () => {
    const r = run('dist/server.js', { LOG_FORMAT: 'fancy' });
    expect(r.status).toBe(1);
    expect(r.lines).toEqual([
      'invalid configuration: LOG_FORMAT must be one of auto, json, pretty (got "fancy")',
    ]);
  });

  it('refuses the playground (npm run demo) unless PUBLIC_BASE_URL is this machine, in one line', () => {
    const r = run('dist/demo.js', {
      PUBLIC_BASE_URL: 'https://partners.example.gh',
      WEB_PUSH: 'off',
    });
    expect(r.status).toBe(1);
    expect(r.lines).toEqual([
      "invalid configuration: DEMO=on, SANDBOX_PAYMENTS_FOR_PRODUCTION=on, SANDBOX_COURIER_FOR_PRODUCTION=on: a local playground's switches, only when PUBLIC_BASE_URL is this machine (localhost, 127.x or [::1]), not https://partners.example.gh",
    ]);
    const server = run('dist/server.js', {
      PUBLIC_BASE_URL: 'http://10.0.0.5:8080',
      SANDBOX_COURIER_FOR_PRODUCTION: 'on',
      WEB_PUSH: 'off',
    });
    expect(server.status).toBe(1);
    expect(server.lines).toEqual([
      expect.stringMatching(
        /^invalid configuration: SANDBOX_COURIER_FOR_PRODUCTION=on: a local playground's switches, only when PUBLIC_BASE_URL is this machine/,
      ),
    ]);
  });

  it.each(['dist/server.js', 'dist/worker.js'])(
    '%s refuses a file storage it cannot write, naming the directory, in one line',
    (script) => {
      const file = join(mkdtempSync(join(tmpdir(), 'storage-')), 'a-file');
      writeFileSync(file, '');
      const r = run(script, { STORAGE_DIR: join(file, 'media') });
      expect(r.status).toBe(1);
      expect(r.lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^file storage is not writable: ${join(file, 'media').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(ENOTDIR\\)\\. .*STORAGE=s3`,
          ),
        ),
      ]);
    },
  );

  it('prints every invalid setting on one line', () => {
    const r = run('dist/worker.js', { ADMIN_TOKEN: 'short', REDIS_URL: 'http://redis' });
    expect(r.status).toBe(1);
    expect(r.lines).toEqual([
      'invalid configuration: ADMIN_TOKEN must be at least 16 characters; REDIS_URL must be a redis:// or rediss:// URL',
    ]);
  });

  it.each(['dist/server.js', 'dist/worker.js', 'dist/cli/partner-admin.js migrate'])(
    '%s prints one line for an unreachable database, without its password',
    (script) => {
      const r = run(script, {
        DATABASE_URL: UNREACHABLE_DB,
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      });
      expect(r.status).toBe(1);
      expect(r.lines).toHaveLength(1);
      expect(r.lines[0]).toMatch(
        /^(error: )?cannot reach the database: connect ECONNREFUSED 127\.0\.0\.1:1 \(check DATABASE_URL/,
      );
      expect(r.lines.join('') + r.stdout).not.toContain('hunter2');
    },
  );

  it.each(['dist/server.js', 'dist/worker.js'])(
    '%s refuses PostgreSQL without SECRETS_KEY, in one line, before it connects',
    (script) => {
      // Each instance would otherwise make a throw-away key of its own, and every signed call would fail.
      const r = run(script, { DATABASE_URL: UNREACHABLE_DB });
      expect(r.status).toBe(1);
      expect(r.lines).toEqual([
        'SECRETS_KEY is not set: with a PostgreSQL DATABASE_URL every instance must seal secrets with the same key. Make one with `openssl rand -base64 32`, set it as SECRETS_KEY for every instance, and keep it safe.',
      ]);
    },
  );
});
