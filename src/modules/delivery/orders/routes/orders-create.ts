import { defineOperation } from '../../../../platform/http/operation.ts';
import { CreateOrderBody, orderValidationError } from '../schema.ts';
import type { OrdersService } from '../service.ts';
import { createdView } from '../views.ts';
import { requireSpendScope, success } from './common.ts';

export const ordersCreate = (orders: OrdersService, publicBaseUrl: string) =>
  defineOperation({
    id: 'delivery.orders.create',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.create',
    summary: 'Create a delivery order (recipient pays on delivery by default, or debit the partner wallet)',
    scope: 'delivery:write',
    access: 'write',
    body: CreateOrderBody,
    errorCodes: ['MISSING_REQUIRED_FIELD', 'INVALID_ORDER_PAYLOAD', 'DUPLICATE_ORDER_REFERENCE', 'INSUFFICIENT_WALLET_BALANCE', 'INSUFFICIENT_SCOPE'],
    validationError: orderValidationError,
    beforeValidation: requireSpendScope,
    handler: async ({ body, auth }) => success('Order created', createdView(await orders.create(auth, body), publicBaseUrl), 201),
  });
