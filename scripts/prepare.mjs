// npm's `prepare` step, run by `npm ci` and `npm install` in the repository: generates the SDK's
// types from docs/openapi.json, builds the protocol package, the SDK and the server (src/ to dist/),
// then links the repository's own commands into node_modules/.bin. Plain JavaScript: it runs before
// anything is built.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

// The container image installs its dependencies from the manifests alone, in a layer of their own
// (see Dockerfile), then copies the sources and runs `npm run prepare`.
if (!existsSync('src')) {
  console.log(
    'prepare: no src/ yet (an install from the manifests alone); `npm run prepare` builds once the sources are in place',
  );
  process.exit(0);
}

// The build's tools are dev dependencies, so a production-only install cannot build: it stops here
// with the documented way instead of failing on a missing command.
if (
  !['typescript', 'openapi-typescript'].every((name) =>
    existsSync(join('node_modules', name, 'package.json')),
  )
) {
  console.error(
    'npm ci --omit=dev cannot build the platform (TypeScript and openapi-typescript are dev dependencies): install with `npm ci && npm prune --omit=dev` (docs/deployment.md, "The build"), or run the container image',
  );
  process.exit(1);
}

for (const args of [
  ['run', 'sdk:types'],
  ['run', 'build', '-w', '@partner-platform/protocol'],
  ['run', 'build', '-w', '@partner-platform/sdk'],
  ['run', 'build'],
]) {
  // npm_execpath is the npm that runs this step (absent when the script is run by hand).
  const npm = process.env.npm_execpath;
  const { status } = npm
    ? spawnSync(process.execPath, [npm, ...args], { stdio: 'inherit' })
    : spawnSync('npm', args, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

// npm links the commands of dependencies and workspaces into node_modules/.bin, never the project's
// own, and a `bin` in the root package.json makes `npx <command>` install the repository into npx's
// cache first (a pause of 20 s or more, with registry lookups). Linked here, `npx partner-admin` and
// `npx ppctl` start at once, offline.
const COMMANDS = { 'partner-admin': 'bin/partner-admin.mjs', ppctl: 'packages/sdk/bin/ppctl.mjs' };
const bin = join('node_modules', '.bin');
mkdirSync(bin, { recursive: true });
for (const [name, target] of Object.entries(COMMANDS)) {
  rmSync(join(bin, name), { force: true });
  try {
    symlinkSync(relative(bin, target), join(bin, name));
    chmodSync(target, 0o755);
  } catch (err) {
    // Windows lets only some users make symbolic links: the install goes on without the shortcut.
    console.warn(`prepare: could not link ${name} (${err.code}); run it with node ${target}`);
  }
}
