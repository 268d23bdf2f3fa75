import type { Db } from '../../../platform/db/index.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import { appendEvent } from '../../webhooks/index.ts';
import { ordersRepository as repo } from './repository.ts';
import type { OrderWallet } from './service.ts';

const BATCH = 100;

/**
 * Refunds the fee of cancelled wallet-funded orders shortly after the cancellation (which answered
 * refund_status "pending"). Each refund, its status change and its wallet.refund.completed event
 * are one transaction; a compare-and-set on the order makes a refund happen once across instances.
 */
export class RefundWorker {
  constructor(
    private readonly db: Db,
    private readonly wallet: OrderWallet,
    private readonly clock: () => number,
  ) {}

  async tick(): Promise<number> {
    const due = await repo.pendingRefunds(this.db, BATCH);
    let refunded = 0;
    for (const order of due) {
      const at = new Date(this.clock());
      const done = await this.db.transaction(async (tx) => {
        if (!(await repo.markRefunded(tx, order.id, at))) return false;
        const balance = await this.wallet.refundOrderFee(tx, {
          partnerId: order.partner_id,
          orderId: order.id,
          feePesewas: order.fee_pesewas!,
          at,
        });
        await appendEvent(tx, {
          appId: order.app_id,
          environment: order.environment,
          type: 'wallet.refund.completed',
          subjectId: order.id,
          sequence: 1,
          destinationUrl: null,
          at,
          data: {
            order_id: order.id,
            order_reference: order.order_reference,
            amount_ghs: pesewasToGhs(order.fee_pesewas!),
            balance_ghs: pesewasToGhs(balance),
            timestamp: at.toISOString(),
          },
        });
        return true;
      });
      if (done) refunded++;
    }
    return refunded;
  }
}
