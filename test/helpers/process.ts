import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

export interface SpawnOptions {
  waitReady?: boolean;
  /** What to run instead of the TypeScript sources, e.g. `['npm', 'start']`. */
  command?: readonly string[];
  cwd?: string;
  /** Its own process group, as a terminal's foreground job is (signal it with `-pid`). */
  detached?: boolean;
}

/**
 * Starts the compiled server, `dist/server.js` (or `opts.command`), as its own process and waits
 * until it answers. The tiers' global setup has brought dist/ up to date with src/; a process
 * started through tsx would compile the source again, about 3 s of each start.
 */
export async function spawnServer(
  env: Record<string, string>,
  opts: SpawnOptions = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const [command, ...args] = opts.command ?? [process.execPath, 'dist/server.js'];
  const child = spawn(command!, args, {
    cwd: opts.cwd ?? ROOT,
    detached: opts.detached ?? false,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  if (opts.waitReady !== false) {
    // A first start initialises a new embedded database: slow on a busy machine.
    const deadline = Date.now() + 90_000;
    let gone = false;
    void exited.then(() => (gone = true));
    for (;;) {
      if (gone) throw new Error(`server exited before it was ready:\n${out}`);
      try {
        if ((await fetch(`${url}/readyz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`server did not become ready:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, url, output: () => out, exited };
}

/** An operator API call to a spawned server (answers the parsed JSON body). */
export async function adminCall(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<any> {
  const res = await fetch(`${url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/**
 * Fills `dataDir` (an empty embedded DATA_DIR) with a copy of the tiers' migrated template database
 * (made by the global setup, on either pass), so a server spawned on it starts without running
 * every migration: 2 s instead of 5 to 10 on a loaded machine. Only for tests whose subject is not
 * a first start.
 */
export function seedDataDir(dataDir: string): string {
  const template = inject('dataDirTemplate');
  const pgdata = join(dataDir, 'pgdata');
  mkdirSync(pgdata, { recursive: true });
  const tar = spawnSync('tar', ['-xf', template, '-C', pgdata], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`could not unpack ${template}: ${tar.stderr}`);
  return dataDir;
}
