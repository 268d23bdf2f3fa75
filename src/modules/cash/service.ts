import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { courierCash, ledger } from '../ledger/index.ts';
import {
  cashCollectedJournal,
  cashHandoverJournal,
  cashNettedJournal,
  totalDue,
  type CashDue,
} from './domain/journals.ts';
import { cashRepository as repo, type CourierCashRow, type HandoverRow } from './repository.ts';

/** What the recipient of an order owes the courier at the door (read in the delivered action's transaction). */
export type DueOnDelivery = (tx: Queryable, orderId: string) => Promise<CashDue>;

/** The delivered action as the cash check sees it: the amount the courier says they collected, if they said. */
export interface CashDelivery {
  orderId: string;
  courierId: string;
  cashCollectedPesewas?: number | undefined;
}

/** One courier's cash on one day: collected at doors, handed over to the platform. */
export interface CourierCashDay {
  courier_id: string;
  collected_pesewas: number;
  handed_over_pesewas: number;
}

/**
 * Told of each handover in its transaction (same-day payouts follow a handover: their request is
 * written with it, so no commit leaves a handover without it). A failure refuses the handover.
 */
export type HandoverListener = (tx: Queryable, handover: HandoverRow) => Promise<unknown>;

const MAX_PESEWAS = 10_000_000_000;
const amountOk = (n: unknown): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && n > 0 && n <= MAX_PESEWAS;

/**
 * Couriers' cash: what they collect on delivery goes on their own ledger account (courier_cash:<id>)
 * in the delivered action's transaction, once per order; operators record the cash they hand in.
 */
export class CashService {
  private readonly listeners: HandoverListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly due: DueOnDelivery,
  ) {}

  /** Registers what each handover writes in its own transaction (it commits with the handover, or neither does). */
  onHandover(listener: HandoverListener): void {
    this.listeners.push(listener);
  }

  /**
   * The delivered action's check (registered with dispatch): a stated amount other than what is due
   * refuses the delivery; what is due is posted to the courier. A courier who states nothing is taken
   * to have collected what was due. The ledger's unique (kind, order) posts it at most once.
   */
  readonly collect = async (tx: Queryable, job: CashDelivery): Promise<void> => {
    const stated = job.cashCollectedPesewas;
    if (stated !== undefined && !(stated === 0 || amountOk(stated))) {
      throw errors.validation(
        'Invalid cash_collected_pesewas: must be a whole number of pesewas, 0 or more.',
        [
          {
            field: 'cash_collected_pesewas',
            issue: 'must be a whole number of pesewas, 0 or more',
          },
        ],
      );
    }
    const due = await this.due(tx, job.orderId);
    const expected = totalDue(due);
    if (stated !== undefined && stated !== expected) {
      throw errors.cashAmountMismatch(
        `The recipient owes ${expected} pesewas for order ${job.orderId}, not ${stated}; collect the right amount and try again.`,
      );
    }
    if (expected === 0) return;
    const at = new Date(this.clock());
    await ledger.postJournal(tx, cashCollectedJournal(job.orderId, job.courierId, due), at);
    await repo.collect(tx, job.courierId, expected, at);
  };

  /**
   * Sets cash a courier holds against an earning (the pay policy's netting), in the earning's
   * transaction: up to the earning, what they hold comes off their cash and off what the platform
   * owes them. Answers the amount set off (0 when they hold none).
   */
  async netAgainstEarning(
    tx: Queryable,
    earning: { id: string; courierId: string; amountPesewas: number },
  ): Promise<number> {
    const at = new Date(this.clock());
    const netted = await repo.takeUpTo(tx, earning.courierId, earning.amountPesewas, at);
    if (netted > 0)
      await ledger.postJournal(tx, cashNettedJournal(earning.id, earning.courierId, netted), at);
    return netted;
  }

  /** Records cash a courier handed in; more than they hold is refused and nothing changes. */
  async handover(
    courierId: string,
    amountPesewas: number,
    recordedBy: string,
  ): Promise<{ handover: HandoverRow; balance_pesewas: number }> {
    if (!amountOk(amountPesewas)) {
      throw errors.validation(
        'Invalid amount_pesewas: must be a whole number of pesewas above 0.',
        [{ field: 'amount_pesewas', issue: 'must be a whole number of pesewas above 0' }],
      );
    }
    const at = new Date(this.clock());
    return this.db.transaction(async (tx) => {
      if (!(await repo.handIn(tx, courierId, amountPesewas, at))) {
        const balance = await repo.balance(tx, courierId);
        throw errors.handoverExceedsBalance(
          `Courier ${courierId} holds ${balance} pesewas; a handover of ${amountPesewas} is more than that.`,
        );
      }
      const handover: HandoverRow = {
        id: newId('cho'),
        courier_id: courierId,
        amount_pesewas: amountPesewas,
        recorded_by: recordedBy,
        created_at: at,
      };
      await repo.insertHandover(tx, handover);
      await ledger.postJournal(tx, cashHandoverJournal(handover.id, courierId, amountPesewas), at);
      for (const listener of this.listeners) await listener(tx, handover);
      return { handover, balance_pesewas: await repo.balance(tx, courierId) };
    });
  }

  /**
   * One day (UTC, Accra's) of couriers' cash, read from their ledger accounts: what each collected on
   * delivery and what each handed over that day (couriers with neither are left out).
   */
  async day(day: string): Promise<CourierCashDay[]> {
    const byCourier = new Map<string, CourierCashDay>();
    for (const e of await ledger.prefixDay(this.db, courierCash(''), day)) {
      const courierId = e.account.slice(courierCash('').length);
      const row = byCourier.get(courierId) ?? {
        courier_id: courierId,
        collected_pesewas: 0,
        handed_over_pesewas: 0,
      };
      if (e.kind === 'courier_cash_collected') row.collected_pesewas -= Number(e.amount_pesewas);
      if (e.kind === 'courier_cash_handover') row.handed_over_pesewas += Number(e.amount_pesewas);
      byCourier.set(courierId, row);
    }
    return [...byCourier.values()].sort((a, b) => a.courier_id.localeCompare(b.courier_id));
  }

  async balances(limit = 200): Promise<CourierCashRow[]> {
    return repo.balances(this.db, limit);
  }

  async balance(courierId: string): Promise<number> {
    return repo.balance(this.db, courierId);
  }

  async handovers(courierId?: string, limit = 100): Promise<HandoverRow[]> {
    return repo.handovers(this.db, courierId, limit);
  }
}
