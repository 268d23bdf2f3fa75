import { describe, expect, it } from 'vitest';
import { readCookie, serializeCookie } from './cookies.ts';

describe('cookies', () => {
  it('are HttpOnly, SameSite=Lax, whole-site, and Secure only when asked', () => {
    expect(serializeCookie('pp_session', 'abc', { secure: false, maxAge: 60 })).toBe(
      'pp_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60',
    );
    expect(serializeCookie('pp_session', 'abc', { secure: true })).toBe(
      'pp_session=abc; Path=/; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('reads only well-formed values of the named cookie', () => {
    expect(readCookie('a=1; pp_session=tok_EN-1; b=2', 'pp_session')).toBe('tok_EN-1');
    expect(readCookie('pp_session_x=1', 'pp_session')).toBeUndefined();
    expect(readCookie('pp_session=a b', 'pp_session')).toBeUndefined();
    expect(readCookie(`pp_session=${'a'.repeat(129)}`, 'pp_session')).toBeUndefined();
    expect(readCookie(undefined, 'pp_session')).toBeUndefined();
  });
});
