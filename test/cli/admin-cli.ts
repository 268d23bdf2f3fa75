import { execFile } from 'node:child_process';
import { ADMIN_TOKEN } from '../helpers/harness.ts';
import { ROOT } from '../helpers/process.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/partner-admin.mjs ...args` as an operator would, against `url` with the test token, with no
 * colour settings inherited; `env` entries set to undefined are removed.
 */
export function adminCli(
  url: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<Run> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    PARTNER_ADMIN_URL: url,
    ADMIN_TOKEN,
    FORCE_COLOR: undefined,
    NO_COLOR: undefined,
    CLICOLOR_FORCE: undefined,
    ...env,
  };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/partner-admin.mjs', ...args],
      { cwd: ROOT, env: merged as NodeJS.ProcessEnv, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

export const json = (run: Run) => JSON.parse(run.stdout);

/** Each command is a process of its own: a test that runs several in turn on a busy machine needs more than the default. */
export const SLOW = 120_000;

/** The value of a `label:  value` line of a block. */
export const field = (run: Run, label: string): string =>
  new RegExp(`^${label}: +(\\S+)$`, 'm').exec(run.stdout)?.[1] ?? '';
