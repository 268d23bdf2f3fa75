import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/process.ts';

// The SDK's request and response types alias packages/sdk/src/generated/openapi.ts, which install
// generates from docs/openapi.json. With the test that docs/openapi.json is what the server serves,
// this closes the chain from the server's schemas to the SDK's types: a document changed since the
// file was generated fails here.

describe('SDK types generated from the OpenAPI document', () => {
  it('match the committed docs/openapi.json (regenerate with `npm run sdk:types`)', async () => {
    const res = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        'npm',
        ['run', '--silent', 'sdk:types', '--', '--check'],
        { cwd: ROOT, timeout: 60_000 },
        (err, stdout, stderr) => {
          resolve({
            code: err ? (typeof err.code === 'number' ? err.code : -1) : 0,
            output: stdout + stderr,
          });
        },
      );
    });
    expect(res.code, res.output).toBe(0);
  }, 60_000);
});
