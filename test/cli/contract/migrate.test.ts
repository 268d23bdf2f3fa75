import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMigrations } from '../../../src/platform/db/migrate.ts';
import { adminCli, json } from '../admin-cli.ts';

describe('partner-admin migrate (npm run migrate)', () => {
  it('lists pending migrations without applying them, applies them as a step of its own, and is a no-op when run again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-migrate-'));
    // The server's own settings, not the operator API's: no URL or token is needed.
    const migrate = (...args: string[]) =>
      adminCli('', ['migrate', ...args], {
        DATA_DIR: dir,
        DATABASE_URL: undefined,
        DATABASE_SCHEMA: undefined,
        ADMIN_TOKEN: undefined,
      });
    try {
      const files = readMigrations();
      const latest = files.at(-1)!.version;
      const status = await migrate('--status');
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(new RegExp(`^001 +${files[0]!.name} +pending$`, 'm'));
      expect(status.stdout).toContain(
        `schema at version 0 (${files.length} pending: run partner-admin migrate)`,
      );

      const first = await migrate();
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(
        new RegExp(`^001 +${files[0]!.name} +\\d{4}-\\d\\d-\\d\\dT`, 'm'),
      );
      expect(first.stdout).toContain(
        `schema at version ${latest} (applied now: ${files.map((f) => f.version).join(', ')})`,
      );
      const again = await migrate('--json');
      expect(json(again)).toMatchObject({ schema_version: latest, applied_now: [] });
      expect(json(again).migrations).toHaveLength(files.length);
      expect(
        json(again).migrations.every((m: { applied_at: string | null }) => m.applied_at !== null),
      ).toBe(true);

      const bad = await adminCli('', ['migrate'], { DATABASE_URL: 'mysql://nope' });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/DATABASE_URL must be/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
