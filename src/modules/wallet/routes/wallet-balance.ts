import { defineOperation } from '../../../platform/http/operation.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import type { WalletService } from '../service.ts';

export const walletBalance = (wallet: WalletService) =>
  defineOperation({
    id: 'delivery.wallet.balance',
    service: 'delivery',
    method: 'GET',
    path: '/api/v1/delivery/wallet.balance',
    summary: "The partner's delivery wallet balance in GHS (production keys only)",
    scope: 'delivery:wallet:topup',
    productionOnly: true,
    access: 'read',
    handler: async ({ auth }) => ({
      body: { status: 'success', message: 'Wallet balance retrieved', data: { balance_ghs: pesewasToGhs(await wallet.balancePesewas(auth.partnerId)), currency: 'GHS' } },
    }),
  });
