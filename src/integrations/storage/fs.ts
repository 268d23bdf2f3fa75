import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomToken } from '../../platform/ids.ts';
import {
  assertContentType,
  assertSafeKey,
  type ObjectStorage,
  type StoredObject,
} from './storage.ts';

/** The file storage's directory cannot be written: uploads would fail one by one, so the process does not start. */
export class StorageNotWritableError extends Error {
  override readonly name = 'StorageNotWritableError';
  constructor(root: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | null)?.code ?? String(cause);
    super(
      `file storage is not writable: ${root} (${code}). Give this process a writable directory there (a volume in compose, ` +
        'StateDirectory in systemd), set STORAGE_DIR to one, or use STORAGE=s3, the choice for production',
    );
  }
}

/**
 * Objects as files under one directory. Each file starts with its content type and a newline,
 * then the bytes; a write goes to a temporary file renamed into place, so a reader never sees half of one.
 */
export class FileStorage implements ObjectStorage {
  readonly summary: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.summary = `storage: files under ${this.root}`;
  }

  /** Proves at start that the directory can be written (made if missing), naming it when it cannot. */
  async checkWritable(): Promise<void> {
    const probe = join(this.root, `.write-check-${randomToken(6)}`);
    try {
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      await writeFile(probe, '');
      await rm(probe, { force: true });
    } catch (err) {
      throw new StorageNotWritableError(this.root, err);
    }
  }

  private path(key: string): string {
    assertSafeKey(key);
    const path = resolve(join(this.root, key));
    // Belt and braces: safe keys cannot leave the root, and this says so once more.
    if (!path.startsWith(this.root + sep)) throw new Error('storage key refused');
    return path;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertContentType(contentType);
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${randomToken(9)}.tmp`;
    const file = await open(temp, 'wx', 0o600);
    try {
      await file.write(Buffer.from(`${contentType}\n`, 'utf8'));
      await file.write(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    let raw: Buffer;
    try {
      raw = await readFile(this.path(key));
    } catch (err) {
      if (
        (err as NodeJS.ErrnoException).code === 'ENOENT' ||
        (err as NodeJS.ErrnoException).code === 'EISDIR'
      )
        return undefined;
      throw err;
    }
    const newline = raw.indexOf(10);
    if (newline < 0) throw new Error(`stored object ${key} is damaged`);
    return {
      contentType: raw.subarray(0, newline).toString('utf8'),
      bytes: raw.subarray(newline + 1),
    };
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
