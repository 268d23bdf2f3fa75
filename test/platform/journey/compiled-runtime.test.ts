import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, freePort, seedDataDir, spawnServer } from '../../helpers/process.ts';
import { embeddedPass } from '../../helpers/harness.ts';

// What production runs: the compiled dist/ under plain `node`, started by `npm start` or directly
// (the global setup brings dist/ up to date first).
// None of them is about a first start: their data directories start from the migrated template.
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-compiled-'));
  dirs.push(dir);
  return dir;
}

const start = (command: string[], env: Record<string, string>, cwd?: string) =>
  spawnServer({ LOG_LEVEL: 'info', ...env }, { command, cwd, detached: true });

const readyLine = (output: string) =>
  output.split('\n').find((l) => l.includes('partner platform ready'));

/**
 * The pid the server logged as its own, and its command line. /readyz can answer before the log
 * line has come through npm's pipe (a loaded machine), so the line is waited for.
 */
async function serverProcess(output: () => string): Promise<{ pid: number; cmdline: string }> {
  await expect.poll(() => readyLine(output())).toBeDefined();
  const pid = JSON.parse(readyLine(output())!).pid as number;
  return {
    pid,
    cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(),
  };
}

afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.runIf(embeddedPass)('the compiled runtime', () => {
  it('npm start serves from dist/ with node as the process; SIGTERM to npm drains it and frees the data directory', async () => {
    const dataDir = seedDataDir(tempDir());
    const server = await start(['npm', 'start'], { DATA_DIR: dataDir });
    const { pid, cmdline } = await serverProcess(server.output);
    expect(cmdline).toMatch(/node.* dist\/server\.js$/);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toMatch(/tsx/);
    process.kill(server.child.pid!, 'SIGTERM'); // npm only, as a supervisor would
    expect(await server.exited).toBe(0);
    await expect.poll(() => existsSync(`/proc/${pid}`), { timeout: 15_000 }).toBe(false);
    expect(existsSync(join(dataDir, 'LOCK'))).toBe(false);
    expect(server.output().match(/"shutting down"/g)).toHaveLength(1);
  }, 120_000);

  it('Ctrl-C (SIGINT to the whole process group) stops it cleanly every time', async () => {
    const dataDir = seedDataDir(tempDir());
    for (let i = 0; i < 3; i++) {
      const server = await start(['npm', 'start'], { DATA_DIR: dataDir });
      const { pid } = await serverProcess(server.output);
      process.kill(-server.child.pid!, 'SIGINT');
      expect(await server.exited).not.toBeNull();
      await expect.poll(() => existsSync(`/proc/${pid}`), { timeout: 15_000 }).toBe(false);
      expect(existsSync(join(dataDir, 'LOCK'))).toBe(false);
      expect(server.output()).not.toMatch(/shutdown did not finish|shutdown failed/);
    }
  }, 240_000);

  it('reads settings from ./.env, where variables already set win', async () => {
    const cwd = tempDir();
    seedDataDir(join(cwd, 'data'));
    writeFileSync(
      join(cwd, '.env'),
      `DATA_DIR=${join(cwd, 'data')}\nADMIN_TOKEN=from-dotenv-token-0123456789\nLOG_LEVEL=debug\n`,
    );
    const server = await start(
      [process.execPath, join(ROOT, 'dist/server.js')],
      { LOG_LEVEL: 'info' },
      cwd,
    );
    try {
      const res = await fetch(`${server.url}/admin/v1/partners`, {
        headers: { authorization: 'Bearer from-dotenv-token-0123456789' },
      });
      expect(res.status).toBe(200);
      expect(existsSync(join(cwd, 'data', 'LOCK'))).toBe(true);
      expect(server.output()).not.toMatch(/"level":20/); // LOG_LEVEL from the environment, not .env
    } finally {
      process.kill(server.child.pid!, 'SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 120_000);

  it('the worker stops on SIGTERM and leaves no lock', async () => {
    const dataDir = seedDataDir(tempDir());
    const port = await freePort();
    const child = spawn(process.execPath, ['dist/worker.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    await expect
      .poll(() => out.includes('worker running'), { timeout: 90_000, interval: 100 })
      .toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'LOCK'))).toBe(false);
  }, 120_000);
});
