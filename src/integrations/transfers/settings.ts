import { paystackSettings } from '../payments/settings.ts';
import type { PaystackConfig } from '../payments/paystack-client.ts';
import { int, oneOf, type Env } from '../../platform/settings.ts';

export interface TransferSettings {
  /** Which provider sends payouts: the built-in sandbox (default) or Paystack. */
  provider: 'sandbox' | 'paystack';
  /** How long a sandbox transfer stays pending before it is paid, so callers meet the pending path. */
  sandboxDelaySeconds: number;
  /** Paystack's key and endpoint (shared with PAYMENT_GATEWAY=paystack) when provider is paystack. */
  paystack: PaystackConfig | undefined;
}

/** Which provider pays money out, read from the environment. */
export function transferSettings(env: Env, problems: string[]): TransferSettings {
  const provider = oneOf(
    env,
    'PAYOUT_PROVIDER',
    ['sandbox', 'paystack'] as const,
    'sandbox',
    problems,
  );
  const sandboxDelaySeconds = int(env, 'SANDBOX_TRANSFER_DELAY_SECONDS', 30, 0, 86_400, problems);
  const paystack =
    provider === 'paystack'
      ? paystackSettings(env, 'PAYOUT_PROVIDER=paystack', problems)
      : undefined;
  return { provider, sandboxDelaySeconds, paystack };
}
