import type { Db } from '../../../platform/db/index.ts';
import type { Logger } from '../../../platform/logger.ts';
import { ledger } from '../../ledger/index.ts';
import { saleRefundReversedJournal } from '../domain/journals.ts';
import { markRefundReversed } from '../sales/lifecycle.ts';
import { salesRepository as sales } from '../sales/repository.ts';
import type { RefundProviders } from './providers.ts';
import { refundsRepository as repo, type RefundRow } from './repository.ts';

export interface RefundReversalsDeps {
  db: Db;
  clock: () => number;
  log: Logger;
  providers: RefundProviders;
  /** How long after its success a refund is watched for a reversal (0: not watched). */
  windowMs: number;
  /** How often a watched refund is asked about. */
  recheckMs: number;
}

/**
 * A provider may send a refund back after it succeeded (a transfer `reversed`, a Paystack refund with
 * `reversed_at`). Each succeeded refund is asked about again every `recheckMs` within `windowMs` of
 * its success (its next_check_at, so no number of watched refunds starves the others), and at once
 * on a provider's webhook hint. A reversal is applied exactly once, in one transaction under the
 * sale's lock: the refund `succeeded → reversed` by compare-and-set on the attempt's reference, the
 * money booked back to sale_refunds_payable (sale_refund_reversed, keyed by the attempt), the sale
 * `refund_due` again and safe.order.refund_reversed. A crash after the provider answered and before
 * that commit leaves the refund succeeded and due: the next check asks again.
 *
 * A reversed refund is not sent again by itself: the destination just returned the money, so an
 * operator looks at it and retries it (a new reference) or gives another wallet.
 */
export class RefundReversals {
  constructor(private readonly deps: RefundReversalsDeps) {}

  /** Asks about the succeeded refunds whose check is due; answers how many it looked at. */
  async watch(limit: number): Promise<number> {
    const now = this.deps.clock();
    const due = await repo.dueChecks(this.deps.db, new Date(now), limit);
    for (const r of due) {
      if (!this.watched(r, now))
        await repo.scheduleCheck(this.deps.db, r.sale_id, r.reference, null);
      else await this.check(r);
    }
    return due.length;
  }

  /** Asks the provider whether this succeeded attempt was reversed, and applies it or schedules the next check. */
  async check(r: RefundRow): Promise<void> {
    let reason: string | null;
    try {
      reason = await this.reversal(r);
    } catch (err) {
      this.deps.log.warn(
        { err, sale: r.sale_id },
        'could not ask whether a refund was reversed; asking again later',
      );
      reason = null;
    }
    if (reason === null) return this.scheduleNext(r);
    await this.apply(r, reason);
  }

  /** The provider's reason when it reversed this attempt, else null. */
  private async reversal(r: RefundRow): Promise<string | null> {
    if (r.method === 'mobile_money') {
      const status = await this.deps.providers.transfer().status(r.reference);
      return status.state === 'reversed' ? (status.reason ?? 'the transfer was reversed') : null;
    }
    const sale = await sales.findById(this.deps.db, r.sale_id);
    const status = await this.deps.providers.gateway(r).refundStatus(sale!.client_reference);
    // The payment's latest refund, which is this attempt's unless another was made since.
    const ours =
      status.state !== 'unknown' &&
      (r.provider_reference === null || status.providerReference === r.provider_reference);
    return ours && status.state === 'reversed'
      ? `the gateway reversed the refund (${status.rawStatus})`
      : null;
  }

  private async apply(r: RefundRow, reason: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const at = new Date(this.deps.clock());
      const sale = await sales.lock(tx, r.sale_id);
      const done = await repo.transition(
        tx,
        r.sale_id,
        ['succeeded'],
        'reversed',
        at,
        { failure_reason: reason },
        r.reference,
      );
      if (!done || !sale) return;
      await ledger.postJournal(
        tx,
        saleRefundReversedJournal(done.reference, done, done.amount_pesewas),
        at,
      );
      await markRefundReversed(
        tx,
        sale,
        { method: done.method, amountPesewas: done.amount_pesewas, reversedAt: at, reason },
        at,
      );
    });
    this.deps.log.warn(
      { sale: r.sale_id, reference: r.reference, reason },
      'a buyer refund was reversed by the provider: owed again, for an operator to retry',
    );
  }

  private async scheduleNext(r: RefundRow): Promise<void> {
    const next = this.deps.clock() + this.deps.recheckMs;
    await repo.scheduleCheck(
      this.deps.db,
      r.sale_id,
      r.reference,
      this.watched(r, next) ? new Date(next) : null,
    );
  }

  private watched(r: RefundRow, at: number): boolean {
    return r.refunded_at !== null && at <= r.refunded_at.getTime() + this.deps.windowMs;
  }
}
