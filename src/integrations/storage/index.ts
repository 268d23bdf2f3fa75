import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from './fs.ts';
import { S3Storage } from './s3.ts';
import type { StorageSettings } from './settings.ts';
import type { ObjectStorage } from './storage.ts';

export { FileStorage, StorageNotWritableError } from './fs.ts';
export { S3Storage, type S3Settings } from './s3.ts';
export { storageSettings, type StorageSettings } from './settings.ts';
export { isSafeKey, type ObjectStorage, type StoredObject } from './storage.ts';

export interface StorageIntegration {
  storage: ObjectStorage;
  /** Resolves once the store can take files (a file store's directory written to); rejects naming what to fix. */
  ready(): Promise<void>;
  close(): void;
}

/**
 * The configured store. Files go to STORAGE_DIR, else beside the database (DATA_DIR/media); an
 * in-memory database gets a temporary directory that is removed when the app closes, like its data.
 */
export function createStorage(
  settings: StorageSettings,
  where: { dataDir: string; memory: boolean },
  clock?: () => number,
): StorageIntegration {
  const nothing = async () => {};
  if (settings.kind === 's3')
    return { storage: new S3Storage(settings, clock), ready: nothing, close: () => {} };
  if (settings.dir || !where.memory) {
    const files = new FileStorage(settings.dir ?? join(where.dataDir, 'media'));
    return { storage: files, ready: () => files.checkWritable(), close: () => {} };
  }
  const temp = mkdtempSync(join(tmpdir(), 'partner-platform-media-'));
  return {
    storage: new FileStorage(temp),
    ready: nothing,
    close: () => rmSync(temp, { recursive: true, force: true }),
  };
}
