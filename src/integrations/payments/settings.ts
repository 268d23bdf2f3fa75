import { int, onOff, type Env } from '../../platform/settings.ts';
import type { HubtelConfig } from './hubtel.ts';

export interface PaymentSettings {
  gateway: 'sandbox' | 'hubtel';
  /** Production may pay through the sandbox gateway (demo deployments only). */
  sandboxForProduction: boolean;
  /** An unpaid checkout expires after this long. */
  checkoutExpiryMinutes: number;
  hubtel: HubtelConfig | undefined;
}

/** Which gateways take payments, and their credentials, read from the environment. */
export function paymentSettings(env: Env, problems: string[]): PaymentSettings {
  const checkoutExpiryMinutes = int(env, 'CHECKOUT_EXPIRY_MINUTES', 30, 1, 1440, problems);
  const sandboxForProduction = onOff(env, 'SANDBOX_PAYMENTS_FOR_PRODUCTION', problems);
  const wanted = env.PAYMENT_GATEWAY || (env.HUBTEL_API_ID ? 'hubtel' : 'sandbox');
  if (wanted !== 'sandbox' && wanted !== 'hubtel') {
    problems.push('PAYMENT_GATEWAY must be sandbox or hubtel');
    return { gateway: 'sandbox', sandboxForProduction, checkoutExpiryMinutes, hubtel: undefined };
  }
  if (wanted === 'sandbox') return { gateway: 'sandbox', sandboxForProduction, checkoutExpiryMinutes, hubtel: undefined };
  const missing = ['HUBTEL_API_ID', 'HUBTEL_API_KEY', 'HUBTEL_MERCHANT_ACCOUNT'].filter((n) => !env[n]);
  if (missing.length > 0) problems.push(`PAYMENT_GATEWAY=hubtel needs ${missing.join(', ')}`);
  return {
    gateway: 'hubtel',
    sandboxForProduction,
    checkoutExpiryMinutes,
    hubtel: {
      apiId: env.HUBTEL_API_ID ?? '',
      apiKey: env.HUBTEL_API_KEY ?? '',
      merchantAccountNumber: env.HUBTEL_MERCHANT_ACCOUNT ?? '',
      checkoutBaseUrl: (env.HUBTEL_CHECKOUT_URL || 'https://payproxyapi.hubtel.com').replace(/\/+$/, ''),
      statusBaseUrl: (env.HUBTEL_STATUS_URL || 'https://api-txnstatus.hubtel.com').replace(/\/+$/, ''),
      timeoutMs: int(env, 'HUBTEL_TIMEOUT_MS', 10_000, 100, 60_000, problems),
    },
  };
}

