/** Opaque keyset cursor: the last id of a page, base64url so partners never parse it. */
export const encodeCursor = (lastId: string): string =>
  Buffer.from(`p1:${lastId}`, 'utf8').toString('base64url');

/** The id a cursor of ours carries, or null when it is not one. */
export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^p1:([A-Za-z0-9_]{1,64})$/.exec(text);
  return m ? m[1]! : null;
}
