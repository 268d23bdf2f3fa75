import { existsSync } from 'node:fs';
import type { Logger } from './logger.ts';

/**
 * Reads `./.env` into the environment when the file exists; variables already set win. Done in
 * code rather than with `node --env-file-if-exists`, so every entry point (npm scripts, systemd
 * units, the container) behaves the same on every supported Node.js line.
 */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * On SIGTERM or SIGINT, runs `close` once and exits 0; an overrun of `timeoutMs` exits 1, so a
 * stuck drain can never keep a stopping process alive. Repeated signals are ignored: Ctrl-C under
 * `npm start` reaches the process twice (from the terminal and relayed by npm), and exiting on the
 * second would skip the drain and leave the embedded database's lock behind.
 */
export function stopOnSignals(
  close: () => Promise<void>,
  opts: { timeoutMs: number; log: Logger },
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    opts.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      opts.log.error({ timeoutMs: opts.timeoutMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, opts.timeoutMs).unref();
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        opts.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
