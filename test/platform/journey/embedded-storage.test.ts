import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  createPartner,
  embeddedPass,
  SECRETS_KEY,
  startPlatform,
} from '../../helpers/harness.ts';
import { seedDataDir, spawnServer } from '../../helpers/process.ts';
import { PartnerClient } from '@partner-platform/sdk';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-data-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// The embedded database is what a fresh clone runs on; these tests run in every pass.
const embedded = (dir: string) => ({ env: { DATABASE_URL: '', DATA_DIR: dir } });

describe.runIf(embeddedPass)('embedded PostgreSQL (PGlite) in a data directory', () => {
  it('keeps partners and keys across a restart', async () => {
    const dir = dataDir();
    const first = await startPlatform(embedded(dir));
    const s = await createPartner(first, { scopes: ['delivery:read'] });
    await first.close();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);

    const second = await startPlatform(embedded(dir));
    try {
      const client = new PartnerClient({
        apiKey: s.apiKey,
        signingSecret: s.signingSecret,
        baseUrl: second.url,
      });
      expect(await client.delivery.health()).toEqual({ status: 'ok' });
      expect((await second.admin('GET', `/partners/${s.partnerId}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  }, 120_000);

  it('refuses a second live process on the same directory with a clear message', async () => {
    const dir = seedDataDir(dataDir());
    const first = await startPlatform(embedded(dir));
    try {
      await expect(startPlatform(embedded(dir))).rejects.toThrow(
        /data directory .* is in use by process \d+/,
      );
      const second = await spawnServer(
        { DATA_DIR: dir, ADMIN_TOKEN, SECRETS_KEY },
        { waitReady: false },
      );
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/is in use by process \d+/);
    } finally {
      await first.close();
    }
  }, 120_000);

  it('loses no acknowledged write when killed with SIGKILL, and the next start takes over the stale lock', async () => {
    const dir = seedDataDir(dataDir());
    const env = { DATA_DIR: dir, ADMIN_TOKEN, SECRETS_KEY };
    const server = await spawnServer(env);
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${server.url}/admin/v1/partners`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'crash test' }),
          });
          if (res.status === 201)
            acknowledged.push(((await res.json()) as { partner_id: string }).partner_id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(writers);
    expect(existsSync(join(dir, 'LOCK'))).toBe(true);

    const restarted = await spawnServer(env);
    try {
      for (const id of acknowledged) {
        const res = await fetch(`${restarted.url}/admin/v1/partners/${id}`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(res.status, `partner ${id} acknowledged before the crash`).toBe(200);
      }
      const more = await fetch(`${restarted.url}/admin/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'after the crash' }),
      });
      expect(more.status).toBe(201);
    } finally {
      restarted.child.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);
    }
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  }, 180_000);
});

describe.runIf(embeddedPass)('the embedded data directory', () => {
  it('is readable and writable by its owner only, whatever the umask, after opening, writing and closing', async () => {
    const dir = dataDir();
    const before = process.umask(0);
    try {
      const p = await startPlatform(embedded(dir));
      await createPartner(p, { scopes: ['delivery:read'] });
      await p.close();
    } finally {
      process.umask(before);
    }
    const loose: string[] = [];
    const walk = (path: string) => {
      const st = statSync(path);
      if ((st.mode & 0o077) !== 0) loose.push(`${path} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(dir);
    expect(loose).toEqual([]);
  }, 120_000);
});
