import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import type { SalesService } from '../service.ts';
import { StringEnum } from '../../../../platform/http/schemas.ts';
import { DELIVERY_STATUSES } from '../../../delivery/index.ts';
import { SaleIdBody } from '../schema.ts';
import { verifyView } from '../views.ts';
import { PaymentStatus, SALE_ID, STATES } from './sale-schema.ts';

export const ordersVerify = (sales: SalesService) =>
  defineOperation({
    id: 'safe-catalog.orders.verify',
    service: 'safe-catalog',
    method: 'POST',
    path: '/api/v1/safe-catalog/orders.verify',
    summary: 'Check an order against the gateway (online) or its delivery (cod), settling it once',
    scope: 'safe:write',
    productionOnly: true,
    access: 'write',
    body: SaleIdBody,
    errorCodes: ['SALE_NOT_FOUND', 'GATEWAY_ERROR'],
    description:
      "online: `awaiting_payment` until the gateway reports payment (`confirmed`, settled once, delivery dispatched) or failure or expiry (`failed`, stock restocked). cod: `awaiting_delivery` until the delivery is delivered (`confirmed`, settled once) or cancelled or failed (`failed`, restocked). A prepaid sale's money is held until its delivery is delivered, when the vendor's share and your markup are credited (D8); a delivery that fails first owes it back to the buyer. Safe to call any number of times: each is booked exactly once.",
    response: SafeSuccess(
      Type.Object({
        sale_id: Type.String(),
        state: StringEnum(STATES),
        settled: Type.Boolean({
          description:
            "The buyer's money was booked once: paid at the gateway (online) or collected at delivery (cod)",
        }),
        payment_status: PaymentStatus,
        delivery_status: Type.Union([StringEnum(DELIVERY_STATUSES), Type.Null()], {
          description: "The delivery order's status; null until it exists",
        }),
      }),
    ),
    examples: [
      {
        name: 'confirmed',
        summary: 'Paid and settled; the delivery is on its way',
        request: { sale_id: SALE_ID },
        response: {
          status: 'success',
          data: {
            sale_id: SALE_ID,
            state: 'confirmed',
            settled: true,
            payment_status: 'paid',
            delivery_status: 'placed',
          },
        },
      },
    ],
    handler: async ({ body, auth }) => ({
      body: { status: 'success', data: verifyView(await sales.verify(auth, body.sale_id)) },
    }),
  });
