import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import { StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { WalletService } from '../service.ts';
import { topupCheckView } from '../views.ts';

/** The 200 body, for the reference and the docs tests. */
const VerifyResponse = DeliverySuccess(
  Type.Object({
    credited: Type.Boolean({ description: 'true for credited and already_credited' }),
    state: StringEnum(['credited', 'already_credited', 'pending'] as const),
    amount_ghs: Type.Optional(
      Type.Number({ description: 'What the gateway confirmed; when credited or already_credited' }),
    ),
    balance_ghs: Type.Optional(Type.Number({ description: 'Best effort; may be omitted' })),
    verification_status: Type.Optional(
      Type.String({ description: "The gateway's raw status; when pending" }),
    ),
  }),
);

const REFERENCE = { client_reference: 'serviceD_WA9f3c2a1b7d4e6f80' };
const VERIFY_EXAMPLES = [
  {
    name: 'credited',
    summary: 'Paid: the wallet is credited, once',
    request: REFERENCE,
    response: {
      status: 'success',
      message: 'Top-up credited',
      data: { credited: true, state: 'credited', amount_ghs: 100, balance_ghs: 350.75 },
    },
  },
  {
    name: 'pending',
    summary: 'Not paid yet: verify again shortly',
    request: REFERENCE,
    response: {
      status: 'success',
      message: 'Payment not confirmed yet; verify again shortly',
      data: { credited: false, state: 'pending', verification_status: 'Unpaid' },
    },
  },
];

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
    response: VerifyResponse,
    examples: VERIFY_EXAMPLES,
    handler: async ({ body, auth }) => {
      const data = topupCheckView(await wallet.verifyTopup(auth, body.client_reference));
      const message = data.credited
        ? 'Top-up credited'
        : 'Payment not confirmed yet; verify again shortly';
      return { body: { status: 'success', message, data } };
    },
  });
