import type { Db } from '../../../platform/db/index.ts';
import { errors } from '../../../platform/errors.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import { parseDestination, type DestinationInput } from '../../payouts/index.ts';
import { refundsRepository as repo, type RefundListRow, type RefundRow, type RefundStatus } from './repository.ts';
import type { RefundSender } from './sender.ts';

const BATCH = 50;

/** orders.get's `refund` (additive): where the buyer's money back stands, null while none is owed. */
export function refundView(r: RefundRow | undefined) {
  if (!r) return null;
  return { status: r.status, method: r.method, amount_ghs: pesewasToGhs(r.amount_pesewas), refunded_at: r.refunded_at ? r.refunded_at.toISOString() : null };
}

/** Buyer refunds' face for the job, orders.get and the console. */
export class RefundsService {
  constructor(private readonly deps: { db: Db; sender: RefundSender }) {}

  /**
   * The refunds job: opens a refund for each sale owed one (the unique sale makes it once across
   * instances), then sends pending ones and resolves those left processing.
   */
  async tick(): Promise<{ opened: number; looked: number }> {
    let opened = 0;
    for (const id of await repo.dueSales(this.deps.db, BATCH)) if (await this.deps.sender.open(id)) opened++;
    return { opened, looked: await this.deps.sender.recover(BATCH) };
  }

  forSale(saleId: string): Promise<RefundRow | undefined> {
    return repo.find(this.deps.db, saleId);
  }

  list(f: { status?: RefundStatus | undefined; beforeId?: string | undefined }, limit: number): Promise<RefundListRow[]> {
    return repo.list(this.deps.db, f, limit);
  }

  /** An operator tries a failed refund again (409 INVALID_TRANSITION unless it failed). */
  async retry(saleId: string): Promise<RefundRow> {
    const before = await this.found(saleId);
    const after = await this.deps.sender.retry(saleId);
    if (!after) throw errors.invalidTransition(`The refund of ${saleId} is ${before.status}; only a failed refund is tried again.`);
    return after;
  }

  /**
   * An operator gives the buyer's wallet for a mobile money refund (a phone number does not fix
   * its network): 400 with the problems for a bad one, 409 unless the refund is pending or failed.
   */
  async sendTo(saleId: string, input: DestinationInput): Promise<RefundRow> {
    const before = await this.found(saleId);
    const parsed = parseDestination({ ...input, kind: 'mobile_money' });
    if ('problems' in parsed) throw errors.validation('The wallet is not valid; nothing was sent.', parsed.problems);
    if (before.method !== 'mobile_money') throw errors.invalidTransition(`The refund of ${saleId} goes back through ${before.provider}, not to a wallet.`);
    const after = await this.deps.sender.sendTo(saleId, parsed.destination);
    if (!after) throw errors.invalidTransition(`The refund of ${saleId} is ${before.status}; a wallet is given while it is pending or failed.`);
    return after;
  }

  private async found(saleId: string): Promise<RefundRow> {
    const r = await repo.find(this.deps.db, saleId);
    if (!r) throw errors.notFound(`Sale ${saleId} has no refund.`);
    return r;
  }
}
