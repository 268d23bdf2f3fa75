import { canRefund, type RefundOutcome } from '../../../integrations/payments/gateway.ts';
import type { TransferOutcome } from '../../../integrations/transfers/types.ts';
import type { Db, Queryable } from '../../../platform/db/index.ts';
import { ExactlyOnceSender } from '../../../platform/exactly-once.ts';
import { newId } from '../../../platform/ids.ts';
import type { Logger } from '../../../platform/logger.ts';
import { ledger } from '../../ledger/index.ts';
import { saleRefundFeeJournal, saleRefundPaidJournal } from '../domain/journals.ts';
import { markRefunded } from '../sales/lifecycle.ts';
import { salesRepository as sales } from '../sales/repository.ts';
import type { RefundProviders } from './providers.ts';
import { refundsRepository as repo, type RefundRow, type RefundStatus } from './repository.ts';

/** A provider's answer, in the refund's words: succeeded and failed are final. */
interface Answer {
  state: 'processing' | 'succeeded' | 'failed';
  providerReference: string | null;
  feePesewas: number | null;
  reason: string | null;
}

// A refund reversed before we saw it processed never reached the buyer: it failed, and the money is still owed.
const fromGateway = (o: RefundOutcome): Answer => ({
  state:
    o.state === 'processed'
      ? 'succeeded'
      : o.state === 'failed' || o.state === 'reversed'
        ? 'failed'
        : 'processing',
  providerReference: o.providerReference,
  feePesewas: null,
  reason:
    o.state === 'failed' || o.state === 'reversed'
      ? `the gateway ${o.state === 'failed' ? 'refused' : 'reversed'} the refund (${o.rawStatus})`
      : null,
});

// Likewise a transfer reversed before we saw it paid.
const fromTransfer = (o: TransferOutcome): Answer => ({
  state: o.state === 'paid' ? 'succeeded' : o.state === 'pending' ? 'processing' : 'failed',
  providerReference: o.providerReference,
  feePesewas: o.state === 'paid' ? o.feePesewas : null,
  reason:
    o.state === 'failed' || o.state === 'reversed'
      ? (o.reason ?? `the transfer was ${o.state}`)
      : null,
});

/** A gateway refund the gateway never received: it fails for an operator to retry, never risking a second refund. */
const NEVER_RECEIVED: Answer = {
  state: 'failed',
  providerReference: null,
  feePesewas: null,
  reason: 'the gateway never received the refund',
};

/** A refund an operator may send again under a new reference: its last attempt failed, or succeeded and was reversed. */
const RETRYABLE: readonly RefundStatus[] = ['failed', 'reversed'];

export interface RefundSenderDeps {
  db: Db;
  clock: () => number;
  log: Logger;
  providers: RefundProviders;
  graceSeconds: number;
  /** A succeeded refund is first asked about a reversal this long after it succeeded (see RefundReversals). */
  recheckMs: number;
}

/**
 * Refunds buyers exactly once through the platform's ExactlyOnceSender, as the payouts' sender pays
 * payees: a refund moves pending → processing in its own transaction before the provider is called
 * (no transaction is open across the call) and its answer is applied in another. A timeout, a 5xx or
 * a crash leaves it processing, and `recover` asks the provider about it instead of sending again: a
 * transfer by our reference (only one the provider never received is sent again, under the same
 * reference, which it dedupes); a gateway refund, which carries no key of ours, by the payment's latest
 * refund, and one the gateway never received fails for an operator to retry rather than risk a second refund.
 */
export class RefundSender {
  readonly #core: ExactlyOnceSender<RefundRow, Answer>;

  constructor(private readonly deps: RefundSenderDeps) {
    this.#core = new ExactlyOnceSender(deps, {
      noun: 'refund',
      logKey: (r) => ({ sale: r.sale_id }),
      keyOf: (r) => r.sale_id,
      claim: async (tx, saleId, at) => {
        const r = await repo.find(tx, saleId);
        if (r?.method === 'mobile_money' && !r.destination) return undefined;
        return repo.transition(tx, saleId, ['pending'], 'processing', at);
      },
      call: (r) => this.call(r),
      apply: (tx, r, a, at) => this.apply(tx, r, a, at),
      status: (r) => this.status(r),
      neverReceived: (r) => (r.method === 'gateway_refund' ? { answer: NEVER_RECEIVED } : 'resend'),
      reclaim: (tx, r, at) => repo.reclaim(tx, r.sale_id, r.processing_since!, at),
      // Pending refunds with somewhere to go, and those processing past the grace.
      due: [
        (db, now, limit) =>
          repo.open(db, new Date(now.getTime() - deps.graceSeconds * 1000), limit),
      ],
      unsent: (r) => r.status === 'pending',
    });
  }

  /** Opens the sale's refund when it is owed one and has none: through its gateway when that can refund, else mobile money. */
  async open(saleId: string): Promise<RefundRow | undefined> {
    return this.deps.db.transaction(async (tx) => {
      const sale = await sales.lock(tx, saleId);
      if (sale?.payment_status !== 'refund_due' || !sale.refund_due_pesewas) return undefined;
      const gateway = this.deps.providers.gateways.all.find((g) => g.name === sale.gateway);
      const byGateway = gateway !== undefined && canRefund(gateway);
      const provider = byGateway ? gateway.name : this.deps.providers.transfers?.name;
      if (!provider) return undefined;
      const method = byGateway ? 'gateway_refund' : 'mobile_money';
      return repo.create(
        tx,
        {
          sale_id: sale.id,
          reference: newId('srf'),
          amount_pesewas: sale.refund_due_pesewas,
          method,
          provider,
        },
        this.now(),
      );
    });
  }

  /** Sends a pending refund (one with somewhere to go); answers its state after. */
  async send(saleId: string): Promise<RefundRow | undefined> {
    await this.#core.send(saleId);
    return repo.find(this.deps.db, saleId);
  }

  private async call(r: RefundRow): Promise<Answer> {
    if (r.method === 'gateway_refund') {
      const sale = await sales.findById(this.deps.db, r.sale_id);
      return fromGateway(
        await this.deps.providers.gateway(r).refund(sale!.client_reference, r.amount_pesewas),
      );
    }
    const outcome = await this.deps.providers.transfer().send({
      reference: r.reference,
      amountPesewas: r.amount_pesewas,
      destination: r.destination!,
      reason: `Refund ${r.sale_id}`,
    });
    return fromTransfer(outcome);
  }

  /** Sends pending refunds and resolves those processing past the grace. Returns how many it looked at. */
  recover(limit = 100): Promise<number> {
    return this.#core.recover(limit);
  }

  /** Asks the provider about a processing refund and applies its answer (a hint from the provider, too). */
  resolve(r: RefundRow): Promise<void> {
    return this.#core.resolve(r);
  }

  private async status(r: RefundRow): Promise<Answer | 'unknown'> {
    if (r.method === 'gateway_refund') {
      const sale = await sales.findById(this.deps.db, r.sale_id);
      const status = await this.deps.providers.gateway(r).refundStatus(sale!.client_reference);
      return status.state === 'unknown' ? 'unknown' : fromGateway(status);
    }
    const status = await this.deps.providers.transfer().status(r.reference);
    return status.state === 'unknown' ? 'unknown' : fromTransfer(status);
  }

  /**
   * Applies the provider's word about attempt `r` in the sender's transaction, under the sale's lock:
   * the refund's state (compare-and-set, so a repeated or late answer changes nothing), and on success
   * its journals (keyed by the attempt), the sale's payment status and safe.order.refunded; the
   * refund's reversal watch starts.
   */
  private async apply(tx: Queryable, r: RefundRow, a: Answer, at: Date): Promise<void> {
    const sale = await sales.lock(tx, r.sale_id);
    const set = {
      provider_reference: a.providerReference,
      fee_pesewas: a.feePesewas,
      failure_reason: a.reason,
      next_check_at: new Date(at.getTime() + this.deps.recheckMs),
    };
    const done = await repo.transition(
      tx,
      r.sale_id,
      ['processing'],
      a.state,
      at,
      set,
      r.reference,
    );
    if (!done || a.state !== 'succeeded' || !sale) return;
    await ledger.postJournal(
      tx,
      saleRefundPaidJournal(done.reference, done, done.amount_pesewas),
      at,
    );
    if (done.fee_pesewas)
      await ledger.postJournal(
        tx,
        saleRefundFeeJournal(done.reference, done.provider, done.fee_pesewas),
        at,
      );
    await markRefunded(
      tx,
      sale,
      { method: done.method, amountPesewas: done.amount_pesewas, refundedAt: at },
      at,
    );
  }

  /** A failed or reversed refund tried again under a new reference (the provider has seen the old one). */
  async retry(saleId: string): Promise<RefundRow | undefined> {
    const again = await this.deps.db.transaction((tx) =>
      repo.transition(tx, saleId, RETRYABLE, 'pending', this.now(), { reference: newId('srf') }),
    );
    return again && this.send(saleId);
  }

  /** Where a mobile money refund goes, as an operator gives it: a pending one, or a failed or reversed one (then tried again). */
  async sendTo(
    saleId: string,
    destination: NonNullable<RefundRow['destination']>,
  ): Promise<RefundRow | undefined> {
    const set = await this.deps.db.transaction(async (tx) => {
      const r = await repo.find(tx, saleId);
      if (r?.method !== 'mobile_money') return undefined;
      return repo.transition(tx, saleId, ['pending', ...RETRYABLE], 'pending', this.now(), {
        destination,
        ...(r.status === 'pending' ? {} : { reference: newId('srf') }),
      });
    });
    return set && this.send(saleId);
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
