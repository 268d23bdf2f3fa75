import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Operation } from '../../platform/http/operation.ts';
import type { Logger } from '../../platform/logger.ts';
import type { PaymentGateways } from '../../integrations/payments/index.ts';
import type { AccountsService } from '../accounts/index.ts';
import { walletAdminRoutes } from './routes/admin-wallet.ts';
import { walletBalance } from './routes/wallet-balance.ts';
import { walletTopupInitiate } from './routes/wallet-topup-initiate.ts';
import { walletTopupVerify } from './routes/wallet-topup-verify.ts';
import { WalletService } from './service.ts';
import { TopupReads } from './topup-reads.ts';
import { defineModule } from '../../platform/module.ts';

export interface WalletModule {
  service: WalletService;
  /** wallet.balance and wallet.topup.*: served under the delivery service's paths. */
  operations: Operation[];
  adminRoutes: AdminRoute[];
  /** For the shared gateway callback route: credits the references that are top-ups, ignores others. */
  handlePaymentCallback(clientReference: string): Promise<void>;
}

export interface WalletModuleDeps {
  db: Db;
  clock: () => number;
  log: Logger;
  accounts: AccountsService;
  gateways: PaymentGateways;
  publicBaseUrl: string;
}

/**
 * The partner wallet. It exists on every instance: top-up callbacks may reach any of them, and the
 * delivery service debits and refunds order fees through it.
 */
export function createWalletModule({
  db,
  clock,
  log,
  accounts,
  gateways,
  publicBaseUrl,
}: WalletModuleDeps): WalletModule {
  const service = new WalletService({
    db,
    gateways,
    clock,
    log,
    publicBaseUrl,
    appReturnUrl: (appId) => accounts.returnUrl(appId),
    productionActive: async (partnerId) => (await accounts.getPartner(partnerId)).production_active,
  });
  return {
    service,
    operations: [walletBalance(service), walletTopupInitiate(service), walletTopupVerify(service)],
    adminRoutes: walletAdminRoutes(service, accounts),
    handlePaymentCallback: (ref) => service.handleCallback(ref),
  };
}

/** The wallet's declaration; its partner operations are served under delivery's paths (delivery's definition adds them). */
export const walletModule = defineModule({
  name: 'wallet',
  tables: ['wallet_topups'],
  needs: ['accounts'],
  build: (deps: WalletModuleDeps) => {
    const wallet = createWalletModule(deps);
    return {
      face: { wallet, topups: new TopupReads(deps.db) },
      adminRoutes: wallet.adminRoutes,
      paymentCallback: wallet.handlePaymentCallback,
    };
  },
});
