import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** AES-256-GCM envelope for secrets at rest: `v1:<base64 iv|tag|ciphertext>`. */
export class SecretBox {
  /** A key object made once: a raw key would be imported again on every seal and open (each webhook delivery opens one). */
  private readonly key: KeyObject;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
    this.key = createSecretKey(key);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Null when the envelope was sealed with another key or is damaged. */
  open(sealed: string): string | null {
    if (!sealed.startsWith('v1:')) return null;
    const raw = Buffer.from(sealed.slice(3), 'base64');
    if (raw.length < 28) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** API keys carry 192 random bits, so a plain SHA-256 is a safe lookup hash. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * A 32-byte key for one purpose (e.g. "proof"), derived from the secrets key with HKDF-SHA256: a
 * module signs and hashes with its own key and never sees the one that seals secrets.
 */
export function deriveKey(secretsKey: Buffer, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', secretsKey, Buffer.alloc(0), `partner-platform/${purpose}`, 32),
  );
}
