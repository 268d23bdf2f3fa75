import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import { strictObject } from '../../../platform/http/schemas.ts';
import type { WalletService } from '../service.ts';
import { initiatedView } from '../views.ts';

/** The 201 body, for the reference and the docs tests. */
const InitiatedResponse = DeliverySuccess(
  Type.Object({
    checkout_url: Type.String({ format: 'uri', description: 'Send the payer here to pay' }),
    client_reference: Type.String({
      pattern: '^serviceD_WA[0-9a-f]{16}$',
      description: 'The handle for wallet.topup.verify',
    }),
    amount_ghs: Type.Number(),
  }),
);

const INITIATE_EXAMPLES = [
  {
    name: 'topup',
    summary: 'Top up GHS 100',
    request: { amount_ghs: 100 },
    response: {
      status: 'success',
      message: 'Top-up checkout created',
      data: {
        checkout_url:
          'https://partners.example.com/sandbox/checkout/chk_01JD2X5V8T3N0Q6W4RZK7B9MPE',
        client_reference: 'serviceD_WA9f3c2a1b7d4e6f80',
        amount_ghs: 100,
      },
    },
  },
];

export const walletTopupInitiate = (wallet: WalletService) =>
  defineOperation({
    id: 'delivery.wallet.topup.initiate',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/wallet.topup.initiate',
    summary:
      'Start a wallet top-up: answers a gateway checkout URL and the client_reference to verify with',
    scope: 'delivery:wallet:topup',
    productionOnly: true,
    access: 'write',
    body: strictObject({
      amount_ghs: Type.Number({
        minimum: 30,
        maximum: 1_000_000,
        description: 'GHS, at least 30, at most 2 decimals',
      }),
    }),
    errorCodes: ['VALIDATION_ERROR', 'GATEWAY_ERROR', 'PAYMENTS_NOT_CONFIGURED'],
    successStatus: 201,
    response: InitiatedResponse,
    examples: INITIATE_EXAMPLES,
    handler: async ({ body, auth }) => ({
      statusCode: 201,
      body: {
        status: 'success',
        message: 'Top-up checkout created',
        data: initiatedView(await wallet.initiateTopup(auth, body.amount_ghs)),
      },
    }),
  });
