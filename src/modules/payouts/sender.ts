import type { TransferOutcome, TransferProvider } from '../../integrations/transfers/types.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { ExactlyOnceSender } from '../../platform/exactly-once.ts';
import type { Logger } from '../../platform/logger.ts';
import { withGhs } from '../../platform/money.ts';
import { ledger } from '../ledger/index.ts';
import { appendEvent } from '../webhooks/index.ts';
import {
  payeeAccounts,
  payoutFeeJournal,
  payoutFeeRecoveredJournal,
  payoutPaidJournal,
  payoutReturnedJournal,
  splitOf,
} from './domain/journals.ts';
import { destinationRepository as destinations } from './destination-repository.ts';
import type { PayeeDirectory } from './directory.ts';
import { Replacements, type Replacement } from './replacements.ts';
import { payoutsRepository as repo, type DestinationRow, type PayoutRow } from './repository.ts';
import { sendRepository as sends } from './send-repository.ts';
import { afterGrace, type PayoutSettings } from './settings.ts';

const OPEN = ['sending', 'pending'] as const;
/** The recovery's sends in flight at once (kept below the database pool, which each send's transactions use in turn). */
const SEND_CONCURRENCY = 4;
/** The recovery's batch per kind and tick, and the longest wait between two looks at a payout that stays open. */
const RECOVERY_BATCH = 200;
const MAX_CHECK_INTERVAL_SECONDS = 3600;

/** What the provider shows with the transfer. */
export const reasonOf = (p: Pick<PayoutRow, 'id'>) => `Payout ${p.id}`;

/**
 * The journals of a paid payout: it left our balance at the provider, the fee it cost when there was
 * one, and the fee its payee bore set against it.
 */
const paidJournals = (p: PayoutRow, fee: number | null) => [
  payoutPaidJournal(p.id, p.provider, Number(p.amount_pesewas)),
  ...(fee && fee > 0 ? [payoutFeeJournal(p.id, p.provider, fee)] : []),
  ...(Number(p.payee_fee_pesewas) > 0
    ? [payoutFeeRecoveredJournal(p.id, Number(p.payee_fee_pesewas))]
    : []),
];

/**
 * Hands payouts to the transfer provider exactly once, through the platform's ExactlyOnceSender: a
 * payout moves created → sending (its destination still current and verified) in its own transaction
 * before the call and carries its id as our reference; the answer is applied in another transaction.
 * A timeout, a 5xx or a crash leaves it in `sending`, and `recover` asks the provider for the status
 * of that same reference: only a provider that never received it is sent it again, with the same
 * reference, which the provider dedupes. One `pending` at the provider is asked again at its next check.
 */
export class PayoutSender {
  readonly #replacements: Replacements;
  readonly #core: ExactlyOnceSender<PayoutRow, TransferOutcome>;

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      provider: TransferProvider;
      settings: PayoutSettings;
      directory: PayeeDirectory;
    },
  ) {
    this.#replacements = new Replacements({
      clock: deps.clock,
      settings: deps.settings,
      release: (tx, p, at) => this.returnToPayee(tx, p, false, at),
    });
    const backoff = {
      graceSeconds: deps.settings.sendingGraceSeconds,
      maxSeconds: MAX_CHECK_INTERVAL_SECONDS,
    };
    const lease = (statuses: PayoutRow['status'][]) => (db: Db, now: Date, limit: number) =>
      sends.lease(db, statuses, now, limit, backoff);
    this.#core = new ExactlyOnceSender(deps, {
      noun: 'payout',
      logKey: (p) => ({ payout: p.id }),
      keyOf: (p) => p.id,
      claim: async (tx, id, at) =>
        (await sends.claimForSending(tx, [id], at, afterGrace(deps.settings, at)))[0],
      refused: (id) => this.replaceIfStale(id),
      call: (p) =>
        deps.provider.send({
          reference: p.id,
          amountPesewas: Number(p.amount_pesewas),
          destination: p.destination,
          reason: reasonOf(p),
        }),
      apply: (tx, p, o, at) => this.applyIn(tx, p.id, o, at),
      status: async (p) => {
        const status = await deps.provider.status(p.id);
        return status.state === 'unknown' ? 'unknown' : status;
      },
      // Never received: a `sending` payout is sent again under the same reference; a `pending` one waits.
      neverReceived: (p) => (p.status === 'sending' ? 'resend' : 'wait'),
      reclaim: (tx, p, at) =>
        repo.reclaim(tx, p.id, p.sending_since!, at, afterGrace(deps.settings, at)),
      // First those a crash or a lost answer left (`created` and unsent, `sending` past the grace), then
      // those `pending` at the provider: however many stay pending, they never delay the first kind.
      due: [lease(['created', 'sending']), lease(['pending'])],
      unsent: (p) => p.status === 'created',
      concurrency: SEND_CONCURRENCY,
    });
  }

  /**
   * Sends a created payout whose destination is still current and verified; answers its state after
   * (unchanged when it was not `created`). One made for a replaced destination is cancelled and made
   * again for the current one; one whose destination waits for verification stays `created`, and the
   * recovery tries it again later.
   */
  async send(id: string): Promise<PayoutRow | undefined> {
    await this.#core.send(id);
    return repo.find(this.deps.db, id);
  }

  /**
   * Cancels the payee's unsent payouts made for another version than `destination` (its current one,
   * locked in `tx`) and makes each again against it. Destination replacements call it in their transaction.
   */
  replaceUnsent(tx: Queryable, destination: DestinationRow, at: Date): Promise<Replacement[]> {
    return this.#replacements.replaceUnsent(tx, destination, at);
  }

  /**
   * For a `created` payout the claim refused: if it was made for a destination version that is no longer
   * its payee's, it is cancelled and made again for the current one (a bulk claim calls it for those it
   * did not get); one whose destination waits for verification is left for the recovery.
   */
  async replaceIfStale(id: string): Promise<void> {
    const p = await repo.find(this.deps.db, id);
    if (p?.status !== 'created') return;
    const replaced = await this.deps.db.transaction(async (tx) => {
      const current = await destinations.lock(tx, p.payee);
      return current && current.version !== p.destination_version
        ? this.replaceUnsent(tx, current, this.now())
        : [];
    });
    for (const r of replaced)
      this.deps.log.info(
        { payout: r.cancelled, replacement: r.replacement.id, payee: p.payee },
        'payout made for a replaced destination: cancelled and made again',
      );
  }

  /**
   * Claims these payouts for one bulk request (created → sending, committed before the call); those the
   * claim refused are replaced when their destination changed. Answers the claimed, with their recipients.
   */
  async claim(
    ids: readonly string[],
  ): Promise<Array<PayoutRow & { recipient_code: string | null }>> {
    const at = this.now();
    const claimed = await this.deps.db.transaction((tx) =>
      sends.claimForSending(tx, ids, at, afterGrace(this.deps.settings, at)),
    );
    const got = new Set(claimed.map((p) => p.id));
    for (const id of ids) if (!got.has(id)) await this.replaceIfStale(id);
    return claimed;
  }

  /**
   * Applies a bulk answer: the pending and the paid each in one transaction with set-based statements
   * (their journals posted together), the rest (failed, reversed) one by one as `apply` does.
   */
  async applyAll(outcomes: ReadonlyMap<string, TransferOutcome>): Promise<void> {
    const all = [...outcomes].map(([id, o]) => ({ id, ...o }));
    const pending = all.filter((o) => o.state === 'pending');
    const paid = all.filter((o) => o.state === 'paid');
    const at = this.now();
    if (pending.length > 0)
      await this.deps.db.transaction((tx) =>
        sends.moveMany(tx, pending, ['sending'], 'pending', at, afterGrace(this.deps.settings, at)),
      );
    if (paid.length > 0) {
      await this.deps.db.transaction(async (tx) => {
        const moved = await sends.moveMany(tx, paid, OPEN, 'paid', at, null);
        await ledger.postJournals(
          tx,
          moved.flatMap((p) =>
            paidJournals(p, p.fee_pesewas === null ? null : Number(p.fee_pesewas)),
          ),
          at,
        );
        for (const p of moved) await this.tellPartner(tx, p, at);
      });
    }
    for (const o of all)
      if (o.state === 'failed' || o.state === 'reversed') await this.apply(o.id, o);
  }

  /**
   * Resolves payouts whose fate is open, when their next check is due, a bounded batch of each kind,
   * leased (see sendRepository.lease). Returns how many it looked at.
   */
  recover(limit = RECOVERY_BATCH): Promise<number> {
    return this.#core.recover(limit);
  }

  /**
   * A provider webhook: a hint only, confirmed by asking the status of the reference it names.
   * `invalid` when the signature is bad or it is not about a transfer; `unknown` for a reference that is no payout of ours.
   */
  async hint(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<'invalid' | 'unknown' | 'confirmed'> {
    const hint = this.deps.provider.transferHint(rawBody, headers);
    if (!hint) return 'invalid';
    const p = await repo.find(this.deps.db, hint.reference);
    if (!p) return 'unknown';
    await this.#core.confirm(p);
    return 'confirmed';
  }

  /**
   * Applies the provider's word in one transaction: the state change (compare-and-set, so a late or
   * repeated answer changes nothing) and its journals. Reversed follows paid.
   */
  async apply(id: string, o: TransferOutcome): Promise<void> {
    await this.deps.db.transaction((tx) => this.applyIn(tx, id, o, this.now()));
  }

  private async applyIn(tx: Queryable, id: string, o: TransferOutcome, at: Date): Promise<void> {
    const set = {
      provider_reference: o.providerReference,
      fee_pesewas: o.feePesewas,
      failure_reason: o.reason,
    };
    if (o.state === 'pending') {
      await repo.transition(tx, id, ['sending'], 'pending', at, {
        ...set,
        next_check_at: afterGrace(this.deps.settings, at),
      });
      return;
    }
    if (o.state === 'paid' || o.state === 'reversed') {
      const paid = await repo.transition(tx, id, OPEN, 'paid', at, set);
      if (paid) {
        await this.postPaid(tx, paid, o.feePesewas, at);
        await this.tellPartner(tx, paid, at);
      }
      if (o.state === 'paid') return;
      const reversed = await repo.transition(tx, id, ['paid'], 'reversed', at, set);
      if (reversed) await this.returnToPayee(tx, reversed, true, at);
      return;
    }
    const failed = await repo.transition(tx, id, OPEN, 'failed', at, set);
    if (failed) {
      await this.returnToPayee(tx, failed, false, at);
      await this.tellPartner(tx, failed, at);
    }
  }

  /** Maker-checker: a second finance operator (not the one who created it) approves, then it is sent. */
  async approve(id: string, by: string): Promise<PayoutRow | undefined> {
    const p = await repo.find(this.deps.db, id);
    if (!p) throw errors.payoutNotFound(`No payout ${id}.`);
    if (p.created_by === by)
      throw errors.sameOperator(
        'A payout is approved by a second finance operator, not the one who created it.',
      );
    const at = this.now();
    const approved = await this.deps.db.transaction((tx) =>
      repo.transition(tx, id, ['awaiting_approval'], 'created', at, {
        approved_by: by,
        next_check_at: afterGrace(this.deps.settings, at),
      }),
    );
    if (!approved)
      throw errors.invalidTransition(`Payout ${id} is ${p.status}, not awaiting approval.`);
    return this.send(id);
  }

  /** Refuses a payout awaiting approval: the money is owed to the payee again (next run). */
  async reject(id: string, by: string): Promise<PayoutRow> {
    const p = await repo.find(this.deps.db, id);
    if (!p) throw errors.payoutNotFound(`No payout ${id}.`);
    return this.deps.db.transaction(async (tx) => {
      const at = this.now();
      const rejected = await repo.transition(tx, id, ['awaiting_approval'], 'rejected', at, {
        approved_by: by,
      });
      if (!rejected)
        throw errors.invalidTransition(`Payout ${id} is ${p.status}, not awaiting approval.`);
      await this.returnToPayee(tx, rejected, false, at);
      return rejected;
    });
  }

  private async postPaid(tx: Queryable, p: PayoutRow, fee: number | null, at: Date): Promise<void> {
    await ledger.postJournals(tx, paidJournals(p, fee), at);
  }

  private async returnToPayee(
    tx: Queryable,
    p: PayoutRow,
    wasPaid: boolean,
    at: Date,
  ): Promise<void> {
    // What the payout took off each of the payee's accounts is put back: its deductions are owed again.
    const split = splitOf(
      payeeAccounts(p.payee),
      await repo.lines(tx, p.id),
      Number(p.payee_fee_pesewas),
    );
    await ledger.postJournal(
      tx,
      payoutReturnedJournal(p.id, split, {
        paid: wasPaid,
        provider: p.provider,
        cancelled: p.status === 'cancelled',
      }),
      at,
    );
    await repo.releaseLines(tx, p.id);
  }

  /**
   * payout.paid / payout.failed, in the state change's transaction (the compare-and-set makes it once),
   * to each of a partner's apps with a live production key: a payout is the partner's, not one app's,
   * and production money. Vendors have no app: nothing is sent for them.
   */
  private async tellPartner(tx: Queryable, p: PayoutRow, at: Date): Promise<void> {
    if (!p.payee.startsWith('partner:')) return;
    const data = {
      payout_id: p.id,
      status: p.status,
      ...withGhs({
        amount_pesewas: Number(p.amount_pesewas),
        fee_pesewas: p.fee_pesewas === null ? null : Number(p.fee_pesewas),
      }),
      failure_reason: p.failure_reason,
      timestamp: at.toISOString(),
    };
    for (const appId of await this.deps.directory.productionApps(
      tx,
      p.payee.slice('partner:'.length),
    )) {
      await appendEvent(tx, {
        appId,
        environment: 'production',
        type: p.status === 'paid' ? 'payout.paid' : 'payout.failed',
        subjectId: p.id,
        sequence: 1,
        destinationUrl: null,
        at,
        data,
      });
    }
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
