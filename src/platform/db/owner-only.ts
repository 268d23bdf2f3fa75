import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes a data directory and everything in it readable and writable by its owner alone: it holds
 * personal data and the ledger. PGlite creates its files 0666 whatever the umask, so the tree is
 * walked again after opening and after closing; files it adds in between sit inside a directory
 * nobody else can enter.
 */
export function ownerOnly(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ownerOnly(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}
