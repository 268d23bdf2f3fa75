import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive lock on the embedded data directory: two processes opening one PGlite
 * directory corrupt it. A lock left by a dead process is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'LOCK');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) rmSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    // Our own pid means this process already opened the directory (a second open would corrupt it too).
    if (Number.isInteger(holder) && (holder === process.pid || isAlive(holder))) {
      throw new DataDirLockedError(
        `The data directory ${dir} is in use by process ${holder}. Stop that process, or point this one at ` +
          'another DATA_DIR or a PostgreSQL DATABASE_URL.',
      );
    }
    rmSync(file, { force: true });
  }
  throw new DataDirLockedError(
    `Could not take the lock on ${dir}; another process keeps racing for it.`,
  );
}
