import { int, type Env } from '../../platform/settings.ts';
import { feeRules, type FeeRules } from './domain/fees.ts';

export interface PayoutSettings {
  /** Money settled to a payable less than this long ago is pending (a return can still reverse it). */
  holdHours: number;
  /** The hold of a same-day vendor's money, paid after each courier cash handover (shorter, so a morning sale is paid the same day). */
  sameDayHoldHours: number;
  /** A payee whose available balance is below this is left for a later run. */
  minimumPesewas: number;
  /** A payout above this waits for a second finance operator's approval. */
  approvalAbovePesewas: number;
  /** Payouts to a destination changed less than this long ago wait for approval. */
  coolingHours: number;
  /** The scheduled run's daily cut-off, in minutes after midnight, Africa/Accra time. */
  cutoffMinutes: number;
  /** How often the payouts job looks at the schedule and resolves payouts stuck at the provider; 0 turns it off here. */
  intervalMs: number;
  /** A payout in `sending` for longer than this (a crash, a timeout) is resolved by asking the provider its status. */
  sendingGraceSeconds: number;
  /** Who bears the transfer fee per payee kind (PAYOUT_FEE_BEARER), and what a payee bearing it is charged (PAYOUT_PAYEE_FEES). */
  fees: FeeRules;
  /** Payees a run's worker makes payouts for in one transaction (a handful of statements each, whatever the size). */
  runBatchSize: number;
  /** Transfers in one bulk request to the provider (Paystack takes at most 100). */
  bulkSize: number;
  /** Provider requests (bulk or single sends) in flight at once for one run. */
  sendConcurrency: number;
  /** The least time between the starts of two provider requests of a run: keeps a run under the provider's request rate. */
  bulkIntervalMs: number;
}

function cutoff(env: Env, problems: string[]): number {
  const raw = env.PAYOUT_CUTOFF;
  if (raw === undefined || raw === '') return 16 * 60;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw);
  if (!m) problems.push(`PAYOUT_CUTOFF must be a time of day as HH:MM, Accra time (got "${raw}")`);
  return m ? Number(m[1]) * 60 + Number(m[2]) : 16 * 60;
}

/** The payouts module's settings, read from the environment. */
export function payoutSettings(env: Env, problems: string[]): PayoutSettings {
  return {
    holdHours: int(env, 'PAYOUT_HOLD_HOURS', 24, 0, 24 * 30, problems),
    sameDayHoldHours: int(env, 'PAYOUT_SAME_DAY_HOLD_HOURS', 2, 0, 24, problems),
    minimumPesewas: int(env, 'PAYOUT_MINIMUM_PESEWAS', 1000, 1, 100_000_000, problems),
    approvalAbovePesewas: int(
      env,
      'PAYOUT_APPROVAL_ABOVE_PESEWAS',
      500_000,
      1,
      10_000_000_000,
      problems,
    ),
    coolingHours: int(env, 'PAYOUT_COOLING_HOURS', 24, 0, 24 * 30, problems),
    cutoffMinutes: cutoff(env, problems),
    intervalMs: int(env, 'PAYOUT_INTERVAL_MS', 60_000, 0, 3_600_000, problems),
    sendingGraceSeconds: int(env, 'PAYOUT_SENDING_GRACE_SECONDS', 60, 1, 86_400, problems),
    fees: feeRules(env, problems),
    runBatchSize: int(env, 'PAYOUT_RUN_BATCH_SIZE', 1000, 1, 10_000, problems),
    bulkSize: int(env, 'PAYOUT_BULK_SIZE', 100, 1, 100, problems),
    sendConcurrency: int(env, 'PAYOUT_SEND_CONCURRENCY', 4, 1, 32, problems),
    bulkIntervalMs: int(env, 'PAYOUT_BULK_INTERVAL_MS', 100, 0, 60_000, problems),
  };
}

/** When the payouts job first looks at a payout just created or handed to the provider: once the sending grace has passed. */
export const afterGrace = (settings: Pick<PayoutSettings, 'sendingGraceSeconds'>, at: Date): Date =>
  new Date(at.getTime() + settings.sendingGraceSeconds * 1000);
