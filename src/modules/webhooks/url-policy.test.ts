import { describe, expect, it } from 'vitest';
import { isNonPublicAddress, webhookUrlProblem } from './url-policy.ts';

describe('webhook URL policy', () => {
  it('accepts any http(s) URL for staging', () => {
    expect(webhookUrlProblem('http://localhost:3000/hooks', 'staging')).toBeNull();
    expect(webhookUrlProblem('https://example.com/hooks', 'staging')).toBeNull();
    expect(webhookUrlProblem('ftp://example.com', 'staging')).toMatch(/http/);
    expect(webhookUrlProblem('not a url', 'staging')).toMatch(/http/);
  });

  it('requires public https destinations for production', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', 'production')).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/x', 'production')).toMatch(/https/);
    for (const host of ['localhost', '127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '[::1]', '[fd00::1]', '[::ffff:10.0.0.1]', 'db.internal']) {
      expect(webhookUrlProblem(`https://${host}/x`, 'production'), host).toMatch(/private/);
    }
    expect(webhookUrlProblem('https://user:pw@example.com/', 'production')).toMatch(/credentials/);
  });

  it('classifies addresses', () => {
    expect(isNonPublicAddress('8.8.8.8')).toBe(false);
    expect(isNonPublicAddress('100.64.0.1')).toBe(true);
    expect(isNonPublicAddress('2001:4860:4860::8888')).toBe(false);
    expect(isNonPublicAddress('fe80::1')).toBe(true);
  });
});
