// npm pack takes bundleDependencies from this package's own node_modules, but in the workspace
// npm installs @partner-platform/protocol at the repository root only: link it here so that the
// tarball carries the protocol package and installs without the monorepo.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const link = fileURLToPath(new URL('../node_modules/@partner-platform/protocol', import.meta.url));
mkdirSync(fileURLToPath(new URL('../node_modules/@partner-platform/', import.meta.url)), {
  recursive: true,
});
rmSync(link, { recursive: true, force: true });
symlinkSync(fileURLToPath(new URL('../../protocol', import.meta.url)), link, 'junction');
