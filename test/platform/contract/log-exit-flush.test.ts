import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The compiled logger (the tiers' global setup keeps dist/ up to date), in a process of its own.
const exitingAfterLogging = `
  const { jsonStdout } = await import('./dist/platform/logger.js');
  const out = jsonStdout();
  out.write('{"msg":"first"}\\n');
  out.write('{"msg":"last words"}\\n');
  process.exit(3);
`;

describe('JSON log lines on standard output', () => {
  it('reach standard output when the process exits in the turn that logged them', () => {
    const { status, stdout } = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', exitingAfterLogging],
      { encoding: 'utf8' },
    );
    expect(status).toBe(3);
    expect(stdout).toBe('{"msg":"first"}\n{"msg":"last words"}\n');
  });
});
