/** Where uploaded files (proof-of-delivery photos, signatures) are kept: one interface, several adapters. */
export interface StoredObject {
  bytes: Buffer;
  contentType: string;
}

export interface ObjectStorage {
  /** Stores `bytes` under `key`, replacing whatever was there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or undefined when there is none under `key`. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** One line for the start-up log: which adapter, and where (no credentials). */
  readonly summary: string;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * Keys are slash-separated segments of letters, digits, `_`, `-` and `.`, none starting with a dot
 * (so never `.` or `..`), at most 8 segments and 512 characters: no adapter can be walked out of its
 * directory or bucket, and every adapter accepts the same keys.
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  const segments = key.split('/');
  return segments.length <= 8 && segments.every((s) => SEGMENT.test(s));
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`storage key refused: ${JSON.stringify(key.slice(0, 80))}`);
}

export function assertContentType(contentType: string): void {
  if (contentType.length > 100 || !CONTENT_TYPE.test(contentType))
    throw new Error('storage content type refused');
}
