/** The largest photo or signature accepted. */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;

export type ProofImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export const EXTENSIONS: Record<ProofImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * What the bytes are, by their magic numbers (never by a name or a declared type): JPEG, PNG or
 * WebP, else undefined.
 */
export function sniffImage(bytes: Uint8Array): ProofImageType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG)) return 'image/png';
  if (
    startsWith(bytes, ascii('RIFF')) &&
    startsWith(bytes, ascii('WEBP'), 8) &&
    startsWith(bytes, ascii('VP8'), 12)
  )
    return 'image/webp';
  return undefined;
}
