import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import type { WalletService } from '../service.ts';

export const walletTopupInitiate = (wallet: WalletService) =>
  defineOperation({
    id: 'delivery.wallet.topup.initiate',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/wallet.topup.initiate',
    summary: 'Start a wallet top-up: answers a gateway checkout URL and the client_reference to verify with',
    scope: 'delivery:wallet:topup',
    productionOnly: true,
    access: 'write',
    body: strictObject({
      amount_ghs: Type.Number({ minimum: 30, maximum: 1_000_000, description: 'GHS, at least 30, at most 2 decimals' }),
    }),
    errorCodes: ['VALIDATION_ERROR', 'GATEWAY_ERROR'],
    handler: async ({ body, auth }) => ({
      statusCode: 201,
      body: { status: 'success', message: 'Top-up checkout created', data: await wallet.initiateTopup(auth, body.amount_ghs) },
    }),
  });
