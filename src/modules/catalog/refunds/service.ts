import type { Db } from '../../../platform/db/index.ts';
import { errors } from '../../../platform/errors.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import { parseDestination, type DestinationInput } from '../../payouts/index.ts';
import {
  refundsRepository as repo,
  type RefundListRow,
  type RefundRow,
  type RefundStatus,
} from './repository.ts';
import type { RefundProviders } from './providers.ts';
import type { RefundReversals } from './reversals.ts';
import type { RefundSender } from './sender.ts';

const BATCH = 50;

type Headers = Record<string, string | string[] | undefined>;

/** orders.get's `refund` (additive): where the buyer's money back stands, null while none is owed. */
export function refundView(r: RefundRow | undefined) {
  if (!r) return null;
  return {
    status: r.status,
    method: r.method,
    amount_ghs: pesewasToGhs(r.amount_pesewas),
    refunded_at: r.refunded_at ? r.refunded_at.toISOString() : null,
  };
}

/** Buyer refunds' face for the job, orders.get, the console, the operator API and the provider's hints. */
export class RefundsService {
  constructor(
    private readonly deps: {
      db: Db;
      sender: RefundSender;
      reversals: RefundReversals;
      providers: RefundProviders;
    },
  ) {}

  /**
   * The refunds job: opens a refund for each sale owed one (the unique sale makes it once across
   * instances), sends pending ones, resolves those left processing, and asks about succeeded ones
   * whether the provider reversed them.
   */
  async tick(): Promise<{ opened: number; looked: number; watched: number }> {
    let opened = 0;
    for (const id of await repo.dueSales(this.deps.db, BATCH))
      if (await this.deps.sender.open(id)) opened++;
    return {
      opened,
      looked: await this.deps.sender.recover(BATCH),
      watched: await this.deps.reversals.watch(BATCH),
    };
  }

  /**
   * A transfer provider's webhook about one of our refund references (verified by its signature): a
   * hint to ask the provider now, about a processing refund's outcome or a succeeded one's reversal.
   * False when it names no refund of ours.
   */
  async hint(rawBody: string, headers: Headers): Promise<boolean> {
    const reference = this.deps.providers.transfers?.transferHint(rawBody, headers)?.reference;
    const r =
      reference === undefined ? undefined : await repo.findByReference(this.deps.db, reference);
    if (r?.method !== 'mobile_money') return false;
    if (r.status === 'processing') await this.deps.sender.resolve(r);
    else if (r.status === 'succeeded') await this.deps.reversals.check(r);
    return true;
  }

  forSale(saleId: string): Promise<RefundRow | undefined> {
    return repo.find(this.deps.db, saleId);
  }

  list(
    f: { status?: RefundStatus | undefined; beforeId?: string | undefined },
    limit: number,
  ): Promise<RefundListRow[]> {
    return repo.list(this.deps.db, f, limit);
  }

  /** An operator tries a failed or reversed refund again under a new reference (409 INVALID_TRANSITION otherwise). */
  async retry(saleId: string): Promise<RefundRow> {
    const before = await this.found(saleId);
    const after = await this.deps.sender.retry(saleId);
    if (!after)
      throw errors.invalidTransition(
        `The refund of ${saleId} is ${before.status}; only a failed or reversed refund is tried again.`,
      );
    return after;
  }

  /**
   * An operator gives the buyer's wallet for a mobile money refund (a phone number does not fix
   * its network): 400 with the problems for a bad one, 409 unless the refund is pending, failed or reversed.
   */
  async sendTo(saleId: string, input: DestinationInput): Promise<RefundRow> {
    const before = await this.found(saleId);
    const parsed = parseDestination({ ...input, kind: 'mobile_money' });
    if ('problems' in parsed)
      throw errors.validation('The wallet is not valid; nothing was sent.', parsed.problems);
    if (before.method !== 'mobile_money')
      throw errors.invalidTransition(
        `The refund of ${saleId} goes back through ${before.provider}, not to a wallet.`,
      );
    const after = await this.deps.sender.sendTo(saleId, parsed.destination);
    if (!after)
      throw errors.invalidTransition(
        `The refund of ${saleId} is ${before.status}; a wallet is given while it is pending, failed or reversed.`,
      );
    return after;
  }

  private async found(saleId: string): Promise<RefundRow> {
    const r = await repo.find(this.deps.db, saleId);
    if (!r) throw errors.notFound(`Sale ${saleId} has no refund.`);
    return r;
  }
}
