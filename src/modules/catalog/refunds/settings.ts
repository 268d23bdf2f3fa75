import { int, type Env } from '../../../platform/settings.ts';

export interface SaleRefundSettings {
  /** How often the refunds job opens, sends, resolves and watches buyer refunds here; 0 turns it off. */
  intervalMs: number;
  /** A refund `processing` for longer than this (a timeout, a crash, a pending answer) is resolved by asking the provider. */
  graceSeconds: number;
  /** How long after it succeeded a refund is still asked about a reversal by the provider; 0: not watched. */
  watchHours: number;
  /** How often a watched refund is asked about. */
  recheckMinutes: number;
}

/** The buyer refunds' settings, read from the environment. */
export function saleRefundSettings(env: Env, problems: string[]): SaleRefundSettings {
  return {
    intervalMs: int(env, 'SALE_REFUND_INTERVAL_MS', 10_000, 0, 3_600_000, problems),
    graceSeconds: int(env, 'SALE_REFUND_GRACE_SECONDS', 60, 1, 86_400, problems),
    watchHours: int(env, 'SALE_REFUND_WATCH_HOURS', 168, 0, 2_160, problems),
    recheckMinutes: int(env, 'SALE_REFUND_RECHECK_MINUTES', 60, 1, 1_440, problems),
  };
}
