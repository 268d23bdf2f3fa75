import type {
  BulkAnswer,
  TransferProvider,
  TransferRequest,
} from '../../integrations/transfers/types.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { runRepository as runs } from './run-repository.ts';
import { reasonOf, type PayoutSender } from './sender.ts';
import type { PayoutSettings } from './settings.ts';

/** The wait after a 429 that named none (doubled at each one in a row, at most a minute). */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** 429s in a row on one request before its payouts are left in `sending` for the recovery. */
const MAX_RATE_LIMITED = 8;

/**
 * Sends a run's payouts at the provider's speed: pages of `bulkSize` payouts in id order, each claimed
 * (created → sending, committed) before one bulk request outside any transaction, the per-transfer
 * answers applied after; `sendConcurrency` requests in flight, their starts at least `bulkIntervalMs`
 * apart. A 429 holds every request of the run for its Retry-After (or a doubling backoff), then the same
 * transfers are sent again under the same references. A timeout, a 5xx or a transfer the answer does
 * not name leaves its payouts in `sending`: the recovery asks the provider by reference, as for one send.
 * A provider without bulk transfers is sent one payout per request, as `PayoutSender.send` does.
 */
export class RunSender {
  #nextStart = 0;

  constructor(
    private readonly deps: {
      db: Db;
      log: Logger;
      provider: TransferProvider;
      settings: PayoutSettings;
      sender: PayoutSender;
      sleep?: (ms: number) => Promise<void>;
    },
  ) {}

  /** Sends every `created` payout of the run; `renew` is called before each page (the run's lease). */
  async sendRun(runId: string, renew: () => Promise<void> = async () => {}): Promise<void> {
    const { provider, settings } = this.deps;
    const size = provider.sendBulk
      ? Math.min(settings.bulkSize, provider.maxBulk ?? settings.bulkSize)
      : 1;
    let after = '';
    let taking = Promise.resolve<string[]>([]);
    // Pages are taken one after another (a shared keyset cursor), sent side by side.
    const take = () =>
      (taking = taking.then(async () => {
        await renew();
        const ids = await runs.toSend(this.deps.db, runId, after, size);
        if (ids.length > 0) after = ids.at(-1)!;
        return ids;
      }));
    const worker = async () => {
      for (let ids = await take(); ids.length > 0; ids = await take()) {
        await this.#paced();
        await (provider.sendBulk ? this.#sendBulk(ids) : this.deps.sender.send(ids[0]!));
      }
    };
    await Promise.all(Array.from({ length: settings.sendConcurrency }, worker));
  }

  async #sendBulk(ids: readonly string[]): Promise<void> {
    const claimed = await this.deps.sender.claim(ids);
    if (claimed.length === 0) return;
    const items: TransferRequest[] = claimed.map((p) => ({
      reference: p.id,
      amountPesewas: Number(p.amount_pesewas),
      destination: p.destination,
      reason: reasonOf(p),
      recipientCode: p.recipient_code,
    }));
    for (let limited = 0; limited < MAX_RATE_LIMITED; limited++) {
      let answer: BulkAnswer;
      try {
        answer = await this.deps.provider.sendBulk!(items);
      } catch (err) {
        // Whether the provider took them is unknown: left in `sending` for the recovery to ask, never resent blindly.
        this.deps.log.warn(
          { err, payouts: items.length, first: items[0]!.reference },
          'bulk transfer failed or timed out; their status will be asked',
        );
        return;
      }
      if (answer.state === 'answered') return this.deps.sender.applyAll(answer.outcomes);
      const wait = answer.retryAfterMs ?? Math.min(FIRST_BACKOFF_MS * 2 ** limited, MAX_BACKOFF_MS);
      this.deps.log.info(
        { waitMs: wait, payouts: items.length },
        'provider rate limited the bulk transfer; sending it again after the wait',
      );
      // Every request of the run waits: the limit is the provider's, not this request's.
      this.#nextStart = Math.max(this.#nextStart, Date.now() + wait);
      await this.#paced();
    }
    this.deps.log.warn(
      { payouts: items.length, first: items[0]!.reference },
      'provider kept rate limiting; the payouts are left to the recovery',
    );
  }

  /** Waits until this request may start: at least the interval after the last start, and past any 429's wait (real time, whatever the clock). */
  async #paced(): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.deps.settings.bulkIntervalMs;
    if (start > now) await (this.deps.sleep ?? sleep)(start - now);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
