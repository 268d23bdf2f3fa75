import type { Db } from '../../../platform/db/index.ts';
import {
  ordersRepository as repo,
  type OrderRow,
  type OrderWithTimeline,
  type PartnerOrderDay,
  type PartnerOrderFilter,
} from './repository.ts';

export const PARTNER_ORDERS_PAGE = 25;

/**
 * Reads of a partner's orders across its apps and environments, for its people (the dashboard):
 * another partner's order is indistinguishable from a missing one.
 */
export class PartnerOrders {
  constructor(private readonly db: Db) {}

  /** One page, newest first, and the cursor of the next page when there is one. */
  async list(
    partnerId: string,
    filter: PartnerOrderFilter,
  ): Promise<{ orders: OrderRow[]; nextAfter: string | undefined }> {
    const rows = await repo.listForPartner(this.db, partnerId, filter, PARTNER_ORDERS_PAGE + 1);
    const orders = rows.slice(0, PARTNER_ORDERS_PAGE);
    return { orders, nextAfter: rows.length > PARTNER_ORDERS_PAGE ? orders.at(-1)?.id : undefined };
  }

  /** Orders per day (UTC, which is Accra time) over the `days` days ending on `today` (YYYY-MM-DD), computed in SQL. */
  async daily(partnerId: string, today: string, days: number): Promise<PartnerOrderDay[]> {
    return repo.dailyForPartner(this.db, partnerId, today, days);
  }

  async get(partnerId: string, orderId: string): Promise<OrderWithTimeline | undefined> {
    const found = await repo.findWithTimeline(this.db, orderId);
    return found?.order.partner_id === partnerId ? found : undefined;
  }
}

export const OPERATOR_ORDERS_PAGE = 50;

export type OperatorOrderFilter = PartnerOrderFilter & { partnerId?: string | undefined };

/** Reads of every partner's orders for operators (the console); changes go through OrdersService.operatorMove. */
export class OperatorOrders {
  constructor(private readonly db: Db) {}

  /** One page, newest first, and the cursor of the next page when there is one. */
  async list(
    filter: OperatorOrderFilter,
  ): Promise<{ orders: OrderRow[]; nextAfter: string | undefined }> {
    const rows = await repo.listAll(this.db, filter, OPERATOR_ORDERS_PAGE + 1);
    const orders = rows.slice(0, OPERATOR_ORDERS_PAGE);
    return {
      orders,
      nextAfter: rows.length > OPERATOR_ORDERS_PAGE ? orders.at(-1)?.id : undefined,
    };
  }

  async get(orderId: string): Promise<OrderWithTimeline | undefined> {
    return repo.findWithTimeline(this.db, orderId);
  }
}
