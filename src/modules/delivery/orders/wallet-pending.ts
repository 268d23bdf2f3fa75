import { errors } from '../../../platform/errors.ts';
import type { OrderWallet } from './service.ts';

/**
 * Until the wallet ledger lands, a partner-paid order cannot be debited, so it is refused with
 * nothing written (the order's transaction rolls back) rather than created unpaid.
 */
export const walletNotAvailable: OrderWallet = {
  async debitOrderFee() {
    throw errors.serviceUnavailable('Wallet-funded orders are not available yet; nothing was changed. Use payment.payer "recipient".');
  },
};
