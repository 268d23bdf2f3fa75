import { describe, expect, it } from 'vitest';
import { SCOPES, scopeCovers, scopeGrantProblem } from './scopes.ts';

describe('scopeCovers', () => {
  it('grants a scope named exactly', () => {
    for (const s of SCOPES) expect(scopeCovers([s], s)).toBe(true);
  });

  it('lets * cover reads and standard writes of both services, never money scopes', () => {
    expect(scopeCovers(['*'], 'delivery:read')).toBe(true);
    expect(scopeCovers(['*'], 'delivery:write')).toBe(true);
    expect(scopeCovers(['*'], 'safe:read')).toBe(true);
    expect(scopeCovers(['*'], 'delivery:wallet:topup')).toBe(false);
    expect(scopeCovers(['*'], 'delivery:wallet:spend')).toBe(false);
    expect(scopeCovers(['*'], 'safe:write')).toBe(false);
    expect(scopeCovers(['*'], 'payouts:read')).toBe(false);
  });

  it('lets delivery:* cover delivery reads and writes only', () => {
    expect(scopeCovers(['delivery:*'], 'delivery:read')).toBe(true);
    expect(scopeCovers(['delivery:*'], 'delivery:write')).toBe(true);
    expect(scopeCovers(['delivery:*'], 'delivery:wallet:topup')).toBe(false);
    expect(scopeCovers(['delivery:*'], 'delivery:wallet:spend')).toBe(false);
    expect(scopeCovers(['delivery:*'], 'safe:read')).toBe(false);
  });

  it('does not let one named scope imply another', () => {
    expect(scopeCovers(['delivery:write'], 'delivery:read')).toBe(false);
    expect(scopeCovers(['safe:write'], 'safe:read')).toBe(false);
  });
});

describe('scopeGrantProblem', () => {
  it('refuses delivery:wallet:spend on a staging key only', () => {
    expect(scopeGrantProblem('staging', ['delivery:wallet:spend'])).toMatch(/staging/);
    expect(scopeGrantProblem('production', ['delivery:wallet:spend'])).toBeNull();
  });

  it('refuses unknown and empty scope lists', () => {
    expect(scopeGrantProblem('staging', ['delivery:admin'])).toMatch(
      /unknown scope "delivery:admin"/,
    );
    expect(scopeGrantProblem('staging', [])).toMatch(/at least one/);
    expect(scopeGrantProblem('staging', ['*', 'delivery:*'])).toBeNull();
  });
});
