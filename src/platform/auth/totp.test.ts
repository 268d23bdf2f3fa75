import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  otpauthUri,
  totpCode,
  totpStep,
  verifyTotp,
} from './totp.ts';

// RFC 6238, appendix B: T0 = 0, X = 30, 8 digits; each hash with its own seed.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: Array<[number, string, keyof typeof SEEDS]> = [
  [59, '94287082', 'sha1'],
  [59, '46119246', 'sha256'],
  [59, '90693936', 'sha512'],
  [1111111109, '07081804', 'sha1'],
  [1111111109, '68084774', 'sha256'],
  [1111111109, '25091201', 'sha512'],
  [1111111111, '14050471', 'sha1'],
  [1111111111, '67062674', 'sha256'],
  [1111111111, '99943326', 'sha512'],
  [1234567890, '89005924', 'sha1'],
  [1234567890, '91819424', 'sha256'],
  [1234567890, '93441116', 'sha512'],
  [2000000000, '69279037', 'sha1'],
  [2000000000, '90698825', 'sha256'],
  [2000000000, '38618901', 'sha512'],
  [20000000000, '65353130', 'sha1'],
  [20000000000, '77737706', 'sha256'],
  [20000000000, '47863826', 'sha512'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s the code is %s (%s)', (seconds, code, hash) => {
    expect(totpCode(SEEDS[hash], totpStep(seconds * 1000), 8, hash)).toBe(code);
  });

  it('round-trips base32 (RFC 4648 vectors) and refuses other characters', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(Buffer.from('f'))).toBe('MY');
    expect(base32Decode('MZXW6YTBOI======')?.toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeUndefined();
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  const secret = base32Encode(SEEDS.sha1);
  const now = 1_111_111_111_000;
  const codeAt = (ms: number) => totpCode(SEEDS.sha1, totpStep(ms));

  it('accepts the current step and one either side, nothing further', () => {
    expect(verifyTotp(secret, codeAt(now), now)).toBe(totpStep(now));
    expect(verifyTotp(secret, codeAt(now - 30_000), now)).toBe(totpStep(now) - 1);
    expect(verifyTotp(secret, codeAt(now + 30_000), now)).toBe(totpStep(now) + 1);
    expect(verifyTotp(secret, codeAt(now - 60_000), now)).toBeUndefined();
    expect(verifyTotp(secret, codeAt(now + 60_000), now)).toBeUndefined();
  });

  it('refuses a code replayed within its window, or one older than the last accepted', () => {
    const step = verifyTotp(secret, codeAt(now), now)!;
    expect(verifyTotp(secret, codeAt(now), now + 10_000, step)).toBeUndefined();
    expect(verifyTotp(secret, codeAt(now - 30_000), now, step)).toBeUndefined();
    expect(verifyTotp(secret, codeAt(now + 30_000), now + 30_000, step)).toBe(step + 1);
  });

  it('refuses malformed codes and secrets without throwing', () => {
    for (const code of [
      '',
      '12345',
      '1234567',
      'abcdef',
      '12 456',
      '\u0000\u0000\u0000\u0000\u0000\u0000',
      '１２３４５６',
    ]) {
      expect(verifyTotp(secret, code, now)).toBeUndefined();
    }
    expect(verifyTotp('not base32!', '123456', now)).toBeUndefined();
    expect(verifyTotp('', '123456', now)).toBeUndefined();
  });

  it('builds the otpauth URI authenticator apps read', () => {
    const text = otpauthUri('JBSWY3DPEHPK3PXP', 'ama@example.com', 'Partner Platform');
    expect(text.startsWith('otpauth://totp/Partner%20Platform:ama%40example.com?')).toBe(true);
    const uri = new URL(text);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Partner Platform',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
