import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { paymentSettings } from '../../../src/integrations/payments/settings.ts';
import {
  createTransferProvider,
  transferSettings,
} from '../../../src/integrations/transfers/index.ts';
import type { Db } from '../../../src/platform/db/index.ts';
import { ROOT } from '../../helpers/process.ts';

const key = 'sk_test_0123456789abcdef';

function parse<T>(
  read: (env: Record<string, string>, problems: string[]) => T,
  env: Record<string, string>,
): { value: T; problems: string[] } {
  const problems: string[] = [];
  return { value: read(env, problems), problems };
}

describe('PAYOUT_PROVIDER', () => {
  it('defaults to the sandbox with a 30 s pending delay, and builds it', () => {
    const { value, problems } = parse(transferSettings, {});
    expect(problems).toEqual([]);
    expect(value).toEqual({ provider: 'sandbox', sandboxDelaySeconds: 30, paystack: undefined });
    expect(createTransferProvider(value, {} as Db).name).toBe('sandbox');
  });

  it('reads Paystack with its key, URL and timeout, and builds it', () => {
    const { value, problems } = parse(transferSettings, {
      PAYOUT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: key,
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9/',
      PAYSTACK_TIMEOUT_MS: '2500',
      SANDBOX_TRANSFER_DELAY_SECONDS: '0',
    });
    expect(problems).toEqual([]);
    expect(value).toEqual({
      provider: 'paystack',
      sandboxDelaySeconds: 0,
      paystack: { secretKey: key, baseUrl: 'http://127.0.0.1:9', timeoutMs: 2500 },
    });
    expect(createTransferProvider(value, {} as Db).name).toBe('paystack');
    expect(
      parse(transferSettings, { PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: key }).value
        .paystack?.baseUrl,
    ).toBe('https://api.paystack.co');
  });

  it('reports every mistake', () => {
    expect(parse(transferSettings, { PAYOUT_PROVIDER: 'flutterwave' }).problems).toEqual([
      expect.stringMatching(/PAYOUT_PROVIDER must be one of sandbox, paystack/),
    ]);
    expect(parse(transferSettings, { PAYOUT_PROVIDER: 'paystack' }).problems).toEqual([
      'PAYOUT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY',
    ]);
    expect(
      parse(transferSettings, {
        PAYOUT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: 'pk_test_public',
        PAYSTACK_BASE_URL: 'ftp://x',
        PAYSTACK_TIMEOUT_MS: '5',
      }).problems,
    ).toEqual([
      expect.stringMatching(/PAYSTACK_SECRET_KEY must be a Paystack secret key/),
      'PAYSTACK_BASE_URL must be an http(s) URL',
      expect.stringMatching(/PAYSTACK_TIMEOUT_MS must be a whole number/),
    ]);
    expect(parse(transferSettings, { SANDBOX_TRANSFER_DELAY_SECONDS: '-1' }).problems).toEqual([
      expect.stringMatching(/SANDBOX_TRANSFER_DELAY_SECONDS/),
    ]);
  });
});

describe('the configuration', () => {
  const base = { ADMIN_TOKEN: 'x'.repeat(24) };
  it('reads the payout provider at start and refuses to start on a mistake', () => {
    expect(loadConfig(base).transfers.provider).toBe('sandbox');
    expect(() => loadConfig({ ...base, PAYOUT_PROVIDER: 'paystack' })).toThrow(
      /PAYOUT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY/,
    );
    expect(() => loadConfig({ ...base, PAYMENT_GATEWAY: 'paystack' })).toThrow(
      /PAYMENT_GATEWAY=paystack needs PAYSTACK_SECRET_KEY/,
    );
  });
});

describe('PAYMENT_GATEWAY=paystack', () => {
  it('reads the shared Paystack settings and the customer email', () => {
    const { value, problems } = parse(paymentSettings, {
      PAYMENT_GATEWAY: 'paystack',
      PAYSTACK_SECRET_KEY: key,
      PAYSTACK_CUSTOMER_EMAIL: 'pay@shop.example',
    });
    expect(problems).toEqual([]);
    expect(value).toMatchObject({
      gateway: 'paystack',
      hubtel: undefined,
      paystack: {
        secretKey: key,
        baseUrl: 'https://api.paystack.co',
        timeoutMs: 10_000,
        customerEmail: 'pay@shop.example',
      },
    });
  });

  it('reports a missing key, a bad email and an unknown gateway', () => {
    expect(
      parse(paymentSettings, { PAYMENT_GATEWAY: 'paystack', PAYSTACK_CUSTOMER_EMAIL: 'nope' })
        .problems,
    ).toEqual([
      'PAYSTACK_CUSTOMER_EMAIL must be an email address',
      'PAYMENT_GATEWAY=paystack needs PAYSTACK_SECRET_KEY',
    ]);
    expect(parse(paymentSettings, { PAYMENT_GATEWAY: 'stripe' }).problems).toEqual([
      'PAYMENT_GATEWAY must be sandbox, hubtel or paystack',
    ]);
  });
});

describe('documentation', () => {
  it('names every Paystack and payout setting in the README and .env.example', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const example = readFileSync(`${ROOT}.env.example`, 'utf8');
    const sources = [
      'src/integrations/payments/settings.ts',
      'src/integrations/transfers/settings.ts',
    ]
      .map((f) => readFileSync(`${ROOT}${f}`, 'utf8'))
      .join('\n');
    const names = new Set(
      [
        ...sources.matchAll(
          /\b(PAYSTACK_[A-Z_]+|PAYOUT_PROVIDER|SANDBOX_TRANSFER_DELAY_SECONDS)\b/g,
        ),
      ].map((m) => m[1]!),
    );
    expect([...names].sort()).toEqual([
      'PAYOUT_PROVIDER',
      'PAYSTACK_BASE_URL',
      'PAYSTACK_CUSTOMER_EMAIL',
      'PAYSTACK_SECRET_KEY',
      'PAYSTACK_TIMEOUT_MS',
      'SANDBOX_TRANSFER_DELAY_SECONDS',
    ]);
    for (const name of names) {
      expect(readme, name).toContain(`\`${name}\``);
      expect(example, name).toContain(name);
    }
  });
});
