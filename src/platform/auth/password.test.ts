import { describe, expect, it } from 'vitest';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the right password and refuses any other', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash, so one password never hashes twice the same', async () => {
    const [a, b] = await Promise.all([
      hashPassword('same password 1'),
      hashPassword('same password 1'),
    ]);
    expect(a).not.toBe(b);
  });

  it('treats canonically equal Unicode spellings as the same password', async () => {
    const stored = await hashPassword('caf\u00e9-password');
    expect(await verifyPassword('cafe\u0301-password', stored)).toBe(true);
  });

  it('answers false, never throws, for malformed or foreign hashes', async () => {
    for (const bad of [
      '',
      'scrypt',
      'bcrypt$2b$10$abc',
      'scrypt$0$8$1$AA$AA',
      'scrypt$x$8$1$AA$AA',
      'scrypt$16$8$1$$',
    ]) {
      expect(await verifyPassword('whatever password', bad)).toBe(false);
    }
  });

  it('asks for a rehash of a hash made at a lower cost', async () => {
    const stored = await hashPassword('some long password');
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(stored.replace('$32768$', '$16384$'))).toBe(true);
    expect(needsRehash('garbage')).toBe(true);
  });

  it('keeps one decoy hash that no password matches', async () => {
    const decoy = await decoyHash();
    expect(await decoyHash()).toBe(decoy);
    expect(await verifyPassword('', decoy)).toBe(false);
  });
});
