import { mapLimited } from './concurrency.ts';
import type { Db, Queryable } from './db/index.ts';
import type { Logger } from './logger.ts';

/** What the sender does when the provider says it never received a claimed row's call. */
export type NeverReceived<Answer> = 'resend' | 'wait' | { answer: Answer };

/**
 * The steps a module supplies for one kind of row it hands to a provider (a payout, a refund). Each
 * database step runs in the transaction it is given; `call` and `status` run outside any.
 */
export interface ExactlyOnceSteps<Row, Answer> {
  /** The row's fields in the logs (`{ payout: id }`). */
  logKey(row: Row): Record<string, unknown>;
  /** What the rows are called in the logs ("payout", "refund"). */
  noun: string;
  /**
   * Moves the row with this key into the in-flight state (compare-and-set: answers undefined when it
   * is not sendable or another worker has it). The sender commits it before calling the provider.
   */
  claim(tx: Queryable, key: string, at: Date): Promise<Row | undefined>;
  /** Called for a key the claim refused (a payout made for a replaced destination is made again). */
  refused?(key: string): Promise<void>;
  /**
   * The provider call under the row's own reference, which the provider dedupes. Throwing means the
   * outcome is unknown (timeout, 5xx, connection lost): the row stays in flight for the recovery.
   */
  call(row: Row): Promise<Answer>;
  /**
   * Applies the provider's word in the sender's transaction: the state change as a compare-and-set
   * from the in-flight states (so a late or repeated answer changes nothing) with everything that goes
   * with it (journals, outbox events), together or not at all.
   */
  apply(tx: Queryable, row: Row, answer: Answer, at: Date): Promise<void>;
  /** Asks the provider about the row's reference: its answer, or 'unknown' when it never received it. */
  status(row: Row): Promise<Answer | 'unknown'>;
  /** What a never-received row becomes; the default claims it again and calls once more (same reference). */
  neverReceived?(row: Row): NeverReceived<Answer>;
  /**
   * Claims an in-flight row again for another call under the same reference, unless another worker
   * just did (its send time moved): answers the row claimed, or undefined.
   */
  reclaim(tx: Queryable, row: Row, at: Date): Promise<Row | undefined>;
  /**
   * The recovery's due rows, one query per kind, taken in order (so a kind that stays open never
   * delays the ones before it). A query takes at most `limit` rows whose next check is due and moves
   * that check by the module's backoff, so other instances skip them and an open row is looked at
   * again later, not at every round.
   */
  due: ReadonlyArray<(db: Db, now: Date, limit: number) => Promise<Row[]>>;
  /** A due row that was never claimed: the recovery sends it rather than asking about it. */
  unsent(row: Row): boolean;
  /** The key `send` and `refused` take. */
  keyOf(row: Row): string;
  /** The recovery's rows in flight at once (each send's transactions use the database pool in turn). */
  concurrency?: number;
}

/**
 * Hands rows to a provider exactly once: claim (committed) → call outside any transaction → apply
 * the answer in another transaction. A timeout, a 5xx or a crash anywhere between the claim and the
 * apply leaves the row in flight, and the recovery asks the provider for the status of that same
 * reference: only a row the provider never received is called again, under the same reference, by
 * whichever worker reclaims it. No transaction is ever open across a provider call, and a row is
 * never sent blindly twice.
 */
export class ExactlyOnceSender<Row, Answer> {
  constructor(
    private readonly deps: { db: Db; clock: () => number; log: Logger },
    private readonly steps: ExactlyOnceSteps<Row, Answer>,
  ) {}

  /** Claims the row and, when it got it, calls the provider and applies the answer; answers the claimed row. */
  async send(key: string): Promise<Row | undefined> {
    const claimed = await this.deps.db.transaction((tx) => this.steps.claim(tx, key, this.now()));
    if (claimed) await this.transmit(claimed);
    else await this.steps.refused?.(key);
    return claimed;
  }

  /** Calls the provider for a claimed row and applies its answer; an unknown outcome is left to the recovery. */
  async transmit(row: Row): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.steps.call(row);
    } catch (err) {
      // Whether the provider took it is unknown: left in flight for the recovery to ask, never resent blindly.
      this.deps.log.warn(
        { err, ...this.steps.logKey(row) },
        `${this.steps.noun} call failed or timed out; its status will be asked`,
      );
      return;
    }
    await this.apply(row, answer);
  }

  /** Applies the provider's word about the row in one transaction. */
  apply(row: Row, answer: Answer): Promise<void> {
    return this.deps.db.transaction((tx) => this.steps.apply(tx, row, answer, this.now()));
  }

  /** A provider's hint about an in-flight row: its status is asked and applied when known, nothing is resent. */
  async confirm(row: Row): Promise<void> {
    const status = await this.steps.status(row);
    if (status !== 'unknown') await this.apply(row, status);
  }

  /** Asks the provider about an in-flight row and applies its answer; one it never received is dealt with as `neverReceived` says. */
  async resolve(row: Row): Promise<void> {
    const status = await this.steps.status(row);
    if (status !== 'unknown') return this.apply(row, status);
    const next = this.steps.neverReceived?.(row) ?? 'resend';
    if (next === 'wait') return;
    if (next !== 'resend') return this.apply(row, next.answer);
    const again = await this.deps.db.transaction((tx) => this.steps.reclaim(tx, row, this.now()));
    if (again) await this.transmit(again);
  }

  /**
   * Sends the due rows never claimed and resolves the due ones in flight, kind by kind; a row that
   * fails is logged and looked at again at its next check. Returns how many rows it looked at.
   */
  async recover(limit: number): Promise<number> {
    let looked = 0;
    for (const due of this.steps.due) {
      const rows = await due(this.deps.db, this.now(), limit);
      looked += rows.length;
      await mapLimited(rows, this.steps.concurrency ?? 1, (row) =>
        (this.steps.unsent(row)
          ? this.send(this.steps.keyOf(row)).then(() => undefined)
          : this.resolve(row)
        ).catch((err: unknown) => {
          this.deps.log.warn(
            { err, ...this.steps.logKey(row) },
            `${this.steps.noun} recovery failed; looked at again at its next check`,
          );
        }),
      );
    }
    return looked;
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
