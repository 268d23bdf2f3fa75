import { int, type Env } from '../../../platform/settings.ts';

export interface SaleRefundSettings {
  /** How often the refunds job opens, sends and resolves buyer refunds here; 0 turns it off. */
  intervalMs: number;
  /** A refund `processing` for longer than this (a timeout, a crash, a pending answer) is resolved by asking the provider. */
  graceSeconds: number;
}

/** The buyer refunds' settings, read from the environment. */
export function saleRefundSettings(env: Env, problems: string[]): SaleRefundSettings {
  return {
    intervalMs: int(env, 'SALE_REFUND_INTERVAL_MS', 10_000, 0, 3_600_000, problems),
    graceSeconds: int(env, 'SALE_REFUND_GRACE_SECONDS', 60, 1, 86_400, problems),
  };
}
