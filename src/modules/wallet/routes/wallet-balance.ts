import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import { pesewasToGhs } from '../../../platform/money.ts';
import type { WalletService } from '../service.ts';

/** The 200 body, for the reference and the docs tests. */
const BalanceResponse = DeliverySuccess(
  Type.Object({
    balance_ghs: Type.Number({ description: 'May be negative down to the credit limit' }),
    currency: Type.Literal('GHS'),
  }),
);

const BALANCE_EXAMPLES = [
  {
    name: 'balance',
    summary: 'The wallet balance',
    response: {
      status: 'success',
      message: 'Wallet balance retrieved',
      data: { balance_ghs: 250.75, currency: 'GHS' },
    },
  },
];

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
    response: BalanceResponse,
    examples: BALANCE_EXAMPLES,
    handler: async ({ auth }) => ({
      body: {
        status: 'success',
        message: 'Wallet balance retrieved',
        data: {
          balance_ghs: pesewasToGhs(await wallet.balancePesewas(auth.partnerId)),
          currency: 'GHS',
        },
      },
    }),
  });
