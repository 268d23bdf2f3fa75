import { describe, expect, it } from 'vitest';
import { originOf } from './actor.ts';

describe('originOf', () => {
  it('keeps the client address and the first 500 characters of the user agent', () => {
    const origin = originOf({ ip: '203.0.113.7', headers: { 'user-agent': 'x'.repeat(900) } });
    expect(origin).toEqual({ ip: '203.0.113.7', userAgent: 'x'.repeat(500) });
  });

  it('answers null for what the request did not say', () => {
    expect(originOf({ headers: {} })).toEqual({ ip: null, userAgent: null });
    expect(originOf({ ip: '::1', headers: { 'user-agent': ['a', 'b'] } }).userAgent).toBeNull();
  });
});
