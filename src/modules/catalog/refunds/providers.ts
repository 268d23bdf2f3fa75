import { canRefund, type RefundingGateway } from '../../../integrations/payments/gateway.ts';
import type { PaymentGateways } from '../../../integrations/payments/index.ts';
import type { TransferProvider } from '../../../integrations/transfers/types.ts';
import type { RefundRow } from './repository.ts';

/** Who moves a refund's money: the collecting gateway (gateway_refund) or the transfer provider (mobile_money). */
export class RefundProviders {
  constructor(
    readonly gateways: PaymentGateways,
    /** Mobile money refunds go out through it; absent, refunds that need one wait. */
    readonly transfers: TransferProvider | undefined,
  ) {}

  gateway(r: Pick<RefundRow, 'provider'>): RefundingGateway {
    const gateway = this.gateways.recorded(r.provider);
    if (!canRefund(gateway)) throw new TypeError(`gateway ${r.provider} cannot refund`);
    return gateway;
  }

  transfer(): TransferProvider {
    if (this.transfers) return this.transfers;
    throw new TypeError('no transfer provider for mobile money refunds');
  }
}
