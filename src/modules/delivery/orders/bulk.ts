import type { Environment } from '../../../platform/auth/scopes.ts';
import { scopeCovers } from '../../../platform/auth/scopes.ts';
import { mapLimited } from '../../../platform/concurrency.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { compileBodyValidator } from '../../../platform/http/validation.ts';
import type { Logger } from '../../../platform/logger.ts';
import { CreateOrderBody, orderValidationError, type CreateOrderInput } from './schema.ts';
import type { OrderOwner, OrdersService } from './service.ts';

/** Items created at once, like the contract's "at most 5 at a time". */
const CONCURRENCY = 5;
/** The most items one batch may hold (orders.create_bulk, the dashboard's upload). */
export const MAX_BULK_ORDERS = 100;

/** Who creates the orders: the owner, and the scopes it acts with (an API key's; the dashboard's own). */
export interface OrderCaller extends OrderOwner {
  scopes: readonly string[];
}

export interface BulkItemResult {
  order_reference: string | null;
  ok: boolean;
  status_code: number;
  order_id: string | null;
  code?: string;
  message?: string;
}

function isPartnerPaid(body: unknown): boolean {
  const payment = (body as { payment?: { payer?: unknown } } | null)?.payment;
  return typeof payment === 'object' && payment !== null && payment.payer === 'partner';
}

/** The spend scope (design: Signing) depends on the body, so it is checked right after parsing, before validation. */
export function requireSpendScope(
  body: unknown,
  caller: { scopes: readonly string[]; environment: Environment },
): void {
  if (!isPartnerPaid(body) || scopeCovers(caller.scopes, 'delivery:wallet:spend')) return;
  // A staging key can never hold the scope: its next step is a production key, not the scope.
  throw errors.insufficientScope(
    caller.environment === 'staging'
      ? 'Wallet-funded orders (payment.payer "partner") need a production key with the scope delivery:wallet:spend, which staging keys never hold: on staging, omit payment or send payment.payer "recipient".'
      : 'Wallet-funded orders (payment.payer "partner") need the scope delivery:wallet:spend: ask the platform\'s operations team for a production key that names it.',
  );
}

/**
 * Many orders at once, each created exactly as orders.create would (its own checks, idempotency and
 * wallet debit); an item's failure is its own result and never fails the batch. orders.create_bulk
 * and the dashboard's CSV upload both call it.
 */
export class BulkOrders {
  private readonly validateItem = compileBodyValidator(CreateOrderBody);

  constructor(
    private readonly orders: OrdersService,
    private readonly log: Logger,
  ) {}

  /** What orders.create checks before creating: an object, the spend scope, the schema. */
  check(item: unknown, caller: OrderCaller): CreateOrderInput {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw errors.invalidOrderPayload(
        'Each item must be a JSON object shaped like an orders.create body.',
      );
    requireSpendScope(item, caller);
    const issues = this.validateItem(item);
    if (issues.length > 0) {
      const { code, message } = orderValidationError(issues);
      throw new AppError(400, code, message);
    }
    return item as CreateOrderInput;
  }

  /** One result per item, in the order given; the caller has checked the batch's size (1 to MAX_BULK_ORDERS). */
  async create(
    caller: OrderCaller,
    items: readonly unknown[],
    log: Logger = this.log,
  ): Promise<BulkItemResult[]> {
    const owner: OrderOwner = {
      partnerId: caller.partnerId,
      appId: caller.appId,
      environment: caller.environment,
    };
    return mapLimited(items, CONCURRENCY, async (item) => {
      const ref = (item as { order_reference?: unknown } | null)?.order_reference;
      const order_reference = typeof ref === 'string' ? ref : null;
      try {
        const row = await this.orders.create(owner, this.check(item, caller));
        return { order_reference, ok: true, status_code: 201, order_id: row.id };
      } catch (err) {
        let e = err;
        if (!(e instanceof AppError)) {
          log.error({ err }, 'bulk item failed unexpectedly');
          e = errors.internal(
            'This item failed on our side; retry it with the same order_reference.',
          );
        }
        const { statusCode, code, message } = e as AppError;
        return {
          order_reference,
          ok: false,
          status_code: statusCode,
          order_id: null,
          code,
          message,
        };
      }
    });
  }
}
