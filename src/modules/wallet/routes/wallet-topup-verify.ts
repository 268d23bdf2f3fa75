import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import type { WalletService } from '../service.ts';

export const walletTopupVerify = (wallet: WalletService) =>
  defineOperation({
    id: 'delivery.wallet.topup.verify',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/wallet.topup.verify',
    summary: 'Check a top-up with the gateway and credit the wallet once it is paid (idempotent)',
    scope: 'delivery:wallet:topup',
    productionOnly: true,
    access: 'write',
    body: strictObject({ client_reference: Type.String({ minLength: 13, maxLength: 64 }) }),
    errorCodes: ['TOPUP_NOT_FOUND', 'GATEWAY_ERROR'],
    handler: async ({ body, auth }) => {
      const data = await wallet.verifyTopup(auth, body.client_reference);
      const message = data.credited ? 'Top-up credited' : 'Payment not confirmed yet; verify again shortly';
      return { body: { status: 'success', message, data } };
    },
  });
