import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import type { SalesService } from '../service.ts';
import { CreateSaleBody } from '../schema.ts';
import { createdView } from '../views.ts';
import { COD_ORDER, EXAMPLE_ORDER, Money, Nullable, SALE_ID } from './sale-schema.ts';

export const ordersCreate = (sales: SalesService) =>
  defineOperation({
    id: 'safe-catalog.orders.create',
    service: 'safe-catalog',
    method: 'POST',
    path: '/api/v1/safe-catalog/orders.create',
    summary: 'Place a single-vendor order, prepaid through a gateway checkout or cash on delivery',
    scope: 'safe:write',
    productionOnly: true,
    access: 'write',
    body: CreateSaleBody,
    errorCodes: [
      'VALIDATION_ERROR',
      'CONFLICTING_COORDINATES',
      'MARKUP_NOT_SUPPORTED_FOR_COD',
      'OUT_OF_STOCK',
      'PRODUCT_NOT_FOUND',
      'DUPLICATE_REFERENCE',
      'GATEWAY_ERROR',
      'PAYMENTS_NOT_CONFIGURED',
    ],
    description:
      'Prices, stock and the delivery fee are read on the server. Stock is reserved atomically: an order asking for more than is free answers 400 `OUT_OF_STOCK` naming the variant. `online` opens a gateway checkout (send the buyer to `checkout_url`, then call orders.verify); `cod` creates the delivery order at once and answers `state` `awaiting_delivery`. A reused `external_reference` of a created order answers 409 `DUPLICATE_REFERENCE` (use orders.get); an attempt answered with 4xx or 502 holds no stock and no reference, so it may be retried. The point of delivery goes in `delivery.coordinates {lat, lng}`, the canonical form shared with delivery orders; the older `delivery.lat`/`lng` is still accepted, and both sent must agree (else 400 `CONFLICTING_COORDINATES`).',
    successStatus: 201,
    response: SafeSuccess(
      Type.Object({
        sale_id: Type.String(),
        reference: Type.String({ description: 'Human-facing reference, e.g. for the buyer' }),
        checkout_url: Nullable(
          Type.String({
            format: 'uri',
            description: 'online: where to send the buyer; null for cod',
          }),
        ),
        state: Type.Optional(
          Type.Literal('awaiting_delivery', { description: 'Present only for cod' }),
        ),
        ...Money,
      }),
    ),
    examples: [
      {
        name: 'online',
        summary: 'Prepaid with a reseller markup',
        request: EXAMPLE_ORDER,
        response: {
          status: 'success',
          data: {
            sale_id: SALE_ID,
            reference: 'SC-7K3M9Q2PXD',
            checkout_url:
              'https://partners.example.com/sandbox/checkout/chk_01JD2Y0A1B2C3D4E5F6G7H8J9M',
            subtotal_ghs: 360,
            delivery_fee_ghs: 28.5,
            markup_ghs: 20,
            total_ghs: 408.5,
          },
        },
      },
      {
        name: 'cod',
        summary: 'Cash on delivery: no markup, no checkout',
        request: COD_ORDER,
        response: {
          status: 'success',
          data: {
            sale_id: SALE_ID,
            reference: 'SC-7K3M9Q2PXE',
            checkout_url: null,
            state: 'awaiting_delivery',
            subtotal_ghs: 360,
            delivery_fee_ghs: 28.5,
            markup_ghs: 0,
            total_ghs: 388.5,
          },
        },
      },
    ],
    handler: async ({ body, auth }) => ({
      statusCode: 201,
      body: { status: 'success', data: createdView(await sales.create(auth, body)) },
    }),
  });
