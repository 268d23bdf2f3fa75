import type { Db } from '../../platform/db/index.ts';
import { decodeCursor, encodeCursor } from '../../platform/cursor.ts';
import { errors } from '../../platform/errors.ts';
import { payeeKey } from './domain/destinations.ts';
import type { PayeesService } from './payees.ts';
import {
  payoutsRepository as repo,
  type LineRow,
  type PayoutRow,
  type PayoutStatus,
} from './repository.ts';

export const PARTNER_PAGE = 50;
export const PARTNER_PAGE_MAX = 200;

export interface PartnerBalance {
  pending_pesewas: number;
  available_pesewas: number;
  paid_out_pesewas: number;
}

/** A partner's own payouts of its markup, for the partner API: another payee's payout is never found. */
export class PartnerPayouts {
  constructor(
    private readonly db: Db,
    private readonly payees: PayeesService,
  ) {}

  async list(
    partnerId: string,
    q: {
      status?: PayoutStatus | undefined;
      limit?: number | undefined;
      cursor?: string | undefined;
    },
  ): Promise<{ payouts: PayoutRow[]; nextCursor: string | null }> {
    const limit = Math.min(q.limit ?? PARTNER_PAGE, PARTNER_PAGE_MAX);
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const invalid = () =>
      errors.validation('Invalid cursor: pass back the next_cursor of a previous page.', [
        { field: 'cursor', issue: 'is not a cursor this service issued' },
      ]);
    if (after === null) throw invalid();
    // One extra row says whether another page exists, so next_cursor is null on the last page.
    const rows = await repo.pageForPayee(this.db, {
      payee: payeeKey('partner', partnerId),
      status: q.status,
      after,
      limit: limit + 1,
    });
    if (!rows) throw invalid();
    const page = rows.slice(0, limit);
    return {
      payouts: page,
      nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
    };
  }

  async get(partnerId: string, payoutId: string): Promise<{ payout: PayoutRow; lines: LineRow[] }> {
    const payout = await repo.find(this.db, payoutId);
    if (!payout || payout.payee !== payeeKey('partner', partnerId))
      throw errors.payoutNotFound(`No payout ${payoutId} for this partner.`);
    return { payout, lines: await repo.lines(this.db, payoutId) };
  }

  async balance(partnerId: string): Promise<PartnerBalance> {
    const b = await this.payees.balance('partner', partnerId);
    return {
      pending_pesewas: Number(b.pending_pesewas),
      available_pesewas: Number(b.available_pesewas),
      paid_out_pesewas: await repo.paidOut(this.db, b.payee),
    };
  }
}
