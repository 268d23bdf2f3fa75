import { int, onOff, type Env } from '../../platform/settings.ts';
import type { HubtelConfig } from './hubtel.ts';
import { PAYSTACK_BASE_URL, type PaystackConfig } from './paystack-client.ts';

export interface PaymentSettings {
  gateway: 'sandbox' | 'hubtel' | 'paystack';
  /** Production may pay through the sandbox gateway (demo deployments only). */
  sandboxForProduction: boolean;
  /** An unpaid checkout expires after this long. */
  checkoutExpiryMinutes: number;
  hubtel: HubtelConfig | undefined;
  paystack: (PaystackConfig & { customerEmail: string | undefined }) | undefined;
}

/** Which gateways take payments, and their credentials, read from the environment. */
export function paymentSettings(env: Env, problems: string[]): PaymentSettings {
  const checkoutExpiryMinutes = int(env, 'CHECKOUT_EXPIRY_MINUTES', 30, 1, 1440, problems);
  const sandboxForProduction = onOff(env, 'SANDBOX_PAYMENTS_FOR_PRODUCTION', problems);
  const wanted = env.PAYMENT_GATEWAY || (env.HUBTEL_API_ID ? 'hubtel' : 'sandbox');
  const none = {
    sandboxForProduction,
    checkoutExpiryMinutes,
    hubtel: undefined,
    paystack: undefined,
  };
  if (wanted !== 'sandbox' && wanted !== 'hubtel' && wanted !== 'paystack') {
    problems.push('PAYMENT_GATEWAY must be sandbox, hubtel or paystack');
    return { gateway: 'sandbox', ...none };
  }
  if (wanted === 'sandbox') return { gateway: 'sandbox', ...none };
  if (wanted === 'paystack') {
    const email = env.PAYSTACK_CUSTOMER_EMAIL || undefined;
    if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      problems.push('PAYSTACK_CUSTOMER_EMAIL must be an email address');
    return {
      gateway: 'paystack',
      ...none,
      paystack: {
        ...paystackSettings(env, 'PAYMENT_GATEWAY=paystack', problems),
        customerEmail: email,
      },
    };
  }
  const missing = ['HUBTEL_API_ID', 'HUBTEL_API_KEY', 'HUBTEL_MERCHANT_ACCOUNT'].filter(
    (n) => !env[n],
  );
  if (missing.length > 0) problems.push(`PAYMENT_GATEWAY=hubtel needs ${missing.join(', ')}`);
  return {
    gateway: 'hubtel',
    ...none,
    hubtel: {
      apiId: env.HUBTEL_API_ID ?? '',
      apiKey: env.HUBTEL_API_KEY ?? '',
      merchantAccountNumber: env.HUBTEL_MERCHANT_ACCOUNT ?? '',
      checkoutBaseUrl: (env.HUBTEL_CHECKOUT_URL || 'https://payproxyapi.hubtel.com').replace(
        /\/+$/,
        '',
      ),
      statusBaseUrl: (env.HUBTEL_STATUS_URL || 'https://api-txnstatus.hubtel.com').replace(
        /\/+$/,
        '',
      ),
      timeoutMs: int(env, 'HUBTEL_TIMEOUT_MS', 10_000, 100, 60_000, problems),
    },
  };
}

/** Paystack's key and endpoint, shared by collections (PAYMENT_GATEWAY) and transfers (PAYOUT_PROVIDER). */
export function paystackSettings(env: Env, wantedBy: string, problems: string[]): PaystackConfig {
  const secretKey = env.PAYSTACK_SECRET_KEY ?? '';
  if (!secretKey) problems.push(`${wantedBy} needs PAYSTACK_SECRET_KEY`);
  else if (!/^sk_(test|live)_\w+$/.test(secretKey))
    problems.push('PAYSTACK_SECRET_KEY must be a Paystack secret key (sk_test_… or sk_live_…)');
  const baseUrl = (env.PAYSTACK_BASE_URL || PAYSTACK_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) problems.push('PAYSTACK_BASE_URL must be an http(s) URL');
  return {
    secretKey,
    baseUrl,
    timeoutMs: int(env, 'PAYSTACK_TIMEOUT_MS', 10_000, 100, 60_000, problems),
  };
}
