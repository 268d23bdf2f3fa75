import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMigrations } from '../../src/platform/db/migrate.ts';
import { ROOT } from '../helpers/process.ts';

describe('npm run migrate', () => {
  it('applies every migration as a step of its own, reports the version, and is a no-op when run again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-migrate-'));
    try {
      const run = () => spawnSync(process.execPath, ['--import', 'tsx', 'src/migrate.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: dir }, encoding: 'utf8', timeout: 120_000 });
      const latest = readMigrations().at(-1)!.version;
      for (const attempt of [run(), run()]) {
        expect(attempt.status, attempt.stderr).toBe(0);
        expect(attempt.stdout).toContain(`schema at version ${latest}`);
      }
      const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/migrate.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'mysql://nope' }, encoding: 'utf8' });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/DATABASE_URL must be/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
