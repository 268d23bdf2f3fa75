import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The Node.js options production runs the server and the worker with: the Dockerfile's
 * `ENV NODE_OPTIONS=` line (the systemd units carry the same; test/deploy checks it). The bench's
 * servers run with exactly these, so a figure it measures is the one production would see.
 */
export function productionNodeOptions(): string {
  const line = /^ENV NODE_OPTIONS=(.+)$/m.exec(
    readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8'),
  );
  if (!line) throw new Error('the Dockerfile sets no NODE_OPTIONS');
  return line[1]!.trim();
}

/**
 * For a suite that is its own server (it runs the modules in process): undefined when this process
 * already runs with production's options; otherwise the same bench command run again in a child that
 * does (V8's heap is sized at start, so the options cannot be taken on later), answering its exit code.
 */
export async function inProductionNodeOptions(): Promise<number | undefined> {
  const options = productionNodeOptions();
  if ((process.env.NODE_OPTIONS ?? '').includes(options)) return undefined;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${options}`.trim() },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
