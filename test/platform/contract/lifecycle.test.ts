import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Runs stopOnSignals in a child process whose close() never finishes (a stuck drain).
const script = `
import { stopOnSignals } from './dist/platform/lifecycle.js';
const log = { info: () => {}, warn: () => {}, error: (o, m) => console.error(m), debug: () => {}, child() { return this; } };
stopOnSignals(() => new Promise(() => {}), { timeoutMs: 300, log });
console.log('armed');
setInterval(() => {}, 1000);
`;

describe('stopOnSignals', () => {
  it('exits 1 when the drain overruns its deadline, once, whatever the number of signals', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const started = Date.now();
    child.kill('SIGTERM');
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(err.match(/did not finish in time/g)).toHaveLength(1);
  }, 30_000);
});
