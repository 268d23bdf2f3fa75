import { readFileSync } from 'node:fs';
import { canonicalRequest, signRequest } from '@partner-platform/sdk';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/process.ts';

const readme = readFileSync(`${ROOT}README.md`, 'utf8');

describe('README', () => {
  it('states a signing example the real code reproduces', () => {
    const section = /<!-- signing-example:start -->([\s\S]*?)<!-- signing-example:end -->/.exec(
      readme,
    )?.[1];
    expect(section).toBeDefined();
    const input = JSON.parse(/```json\n([\s\S]*?)```/.exec(section!)![1]!) as Record<
      string,
      string
    >;
    const canonical = /```text\n([\s\S]*?)\n```/.exec(section!)![1]!;
    const signature = /Signature: `([0-9a-f]{64})`/.exec(section!)![1]!;
    const parts = {
      timestamp: input.timestamp!,
      nonce: input.nonce!,
      method: input.method!,
      url: input.path!,
      body: input.body!,
    };
    expect(canonicalRequest(parts)).toBe(canonical);
    expect(signRequest(input.signing_secret!, parts)).toBe(signature);
  });

  it('documents every configuration variable the server reads', () => {
    // The configuration, and the settings of integrations it reads through their own functions.
    const config = [
      'src/config.ts',
      'src/integrations/mail/settings.ts',
      'src/integrations/storage/settings.ts',
    ]
      .map((f) => readFileSync(`${ROOT}${f}`, 'utf8'))
      .join('\n');
    const read = new Set(
      [
        ...config.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)/g),
        ...config.matchAll(/int\(env, '([A-Z][A-Z0-9_]*)'/g),
        ...config.matchAll(/dateList\(env, '([A-Z][A-Z0-9_]*)'/g),
        ...config.matchAll(/onOff\(env, '([A-Z][A-Z0-9_]*)'/g),
        ...config.matchAll(/oneOf\(env, '([A-Z][A-Z0-9_]*)'/g),
      ].map((m) => m[1]!),
    );
    for (const name of ['HUBTEL_API_ID', 'HUBTEL_API_KEY', 'HUBTEL_MERCHANT_ACCOUNT'])
      read.add(name);
    const missing = [...read].filter(
      (name) => name !== 'DATABASE_SCHEMA' && !readme.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });
});
