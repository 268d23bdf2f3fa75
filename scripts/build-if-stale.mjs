// Runs before `npm start`, `npm run worker` and `npm run migrate`: rebuilds dist/ when a file under
// src/ is newer than the last build, so a fresh clone or an edited tree never serves
// stale JavaScript. Plain JavaScript so that it runs without the TypeScript toolchain.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const stamp = 'dist/.tsbuildinfo';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (built < Math.max(newest('src'), statSync('tsconfig.build.json').mtimeMs)) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    // A production install (dev dependencies pruned) ships a built dist/ and cannot rebuild.
    console.warn(
      existsSync('dist/server.js')
        ? 'dist/ is older than src/, and TypeScript is not installed to rebuild it'
        : 'dist/ is missing: run `npm ci` (it builds)',
    );
    process.exit(existsSync('dist/server.js') ? 0 : 1);
  }
  console.error('building dist/ (src/ changed since the last build)');
  const { status } = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  process.exit(status ?? 1);
}
