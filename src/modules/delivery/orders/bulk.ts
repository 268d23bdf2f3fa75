import { mapLimited } from '../../../platform/concurrency.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { CreateOrderInput } from './schema.ts';
import type { OrderOwner, OrdersService } from './service.ts';

/** Items created at once, like the contract's "at most 5 at a time". */
const CONCURRENCY = 5;

export interface BulkItemResult {
  order_reference: string | null;
  ok: boolean;
  status_code: number;
  order_id: string | null;
  code?: string;
  message?: string;
}

/**
 * Creates each item exactly as orders.create would (its own checks, idempotency and wallet debit);
 * an item's failure is its own result and never fails the batch. `check` refuses an item the way
 * orders.create's validation would.
 */
export async function createEach(
  orders: OrdersService,
  owner: OrderOwner,
  items: readonly unknown[],
  check: (item: unknown) => CreateOrderInput,
  log: Logger,
): Promise<BulkItemResult[]> {
  return mapLimited(items, CONCURRENCY, async (item) => {
    const ref = (item as { order_reference?: unknown } | null)?.order_reference;
    const order_reference = typeof ref === 'string' ? ref : null;
    try {
      const row = await orders.create(owner, check(item));
      return { order_reference, ok: true, status_code: 201, order_id: row.id };
    } catch (err) {
      let e = err;
      if (!(e instanceof AppError)) {
        log.error({ err }, 'bulk item failed unexpectedly');
        e = errors.internal('This item failed on our side; retry it with the same order_reference.');
      }
      const { statusCode, code, message } = e as AppError;
      return { order_reference, ok: false, status_code: statusCode, order_id: null, code, message };
    }
  });
}
