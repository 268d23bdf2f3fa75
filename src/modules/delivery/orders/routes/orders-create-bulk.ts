import { Type } from '@sinclair/typebox';
import { errors } from '../../../../platform/errors.ts';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import { CreateOrderBody } from '../schema.ts';
import { MAX_BULK_ORDERS as MAX_BATCH, type BulkOrders } from '../bulk.ts';
import { ORDER_EXAMPLE } from './orders-create.ts';

/** Documentation only: the batch is checked by beforeValidation (its codes), each item like orders.create. */
const BulkBody = strictObject({
  orders: Type.Array(CreateOrderBody, {
    minItems: 1,
    maxItems: MAX_BATCH,
    description: 'Each item shaped like an orders.create body; an invalid item fails alone',
  }),
});

const BulkResponse = Type.Object({
  status: Type.Literal('ok'),
  summary: Type.Object({ total: Type.Integer(), created: Type.Integer(), failed: Type.Integer() }),
  results: Type.Array(
    Type.Object({
      order_reference: Type.Union([Type.String(), Type.Null()], {
        description: 'Echoed; null when the item had none',
      }),
      ok: Type.Boolean(),
      status_code: Type.Integer({ description: 'The status orders.create would have answered' }),
      order_id: Type.Union([Type.String(), Type.Null()], { description: 'Present when ok' }),
      code: Type.Optional(Type.String({ description: 'Error code, when not ok' })),
      message: Type.Optional(Type.String({ description: 'Error message, when not ok' })),
    }),
    { description: 'One result per item, in the order sent' },
  ),
});

const BULK_EXAMPLES = [
  {
    name: 'one_fails',
    summary: 'Two items: one created; one wallet-funded without the spend scope, which fails alone',
    request: {
      orders: [
        ORDER_EXAMPLE,
        { ...ORDER_EXAMPLE, order_reference: 'shop-10025', payment: { payer: 'partner' } },
      ],
    },
    response: {
      status: 'ok',
      summary: { total: 2, created: 1, failed: 1 },
      results: [
        {
          order_reference: 'shop-10023',
          ok: true,
          status_code: 201,
          order_id: 'dlv_01JD2X5V8T3N0Q6W4RZK7B9MPE',
        },
        {
          order_reference: 'shop-10025',
          ok: false,
          status_code: 403,
          order_id: null,
          code: 'INSUFFICIENT_SCOPE',
          message:
            'Wallet-funded orders (payment.payer "partner") need the scope delivery:wallet:spend.',
        },
      ],
    },
  },
];

export const ordersCreateBulk = (bulk: BulkOrders) =>
  defineOperation({
    id: 'delivery.orders.create_bulk',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/orders.create_bulk',
    summary: 'Create 1 to 100 orders, each exactly as orders.create, at most 5 at a time',
    scope: 'delivery:write',
    access: 'write',
    errorCodes: ['BATCH_EMPTY', 'BATCH_TOO_LARGE', 'INVALID_JSON', 'VALIDATION_ERROR'],
    // The batch is checked here rather than by a schema: its codes are the contract's own.
    beforeValidation: (body) => {
      const list = (body as { orders?: unknown }).orders;
      if (!Array.isArray(list))
        throw errors.batchTooLarge('orders must be an array of 1 to 100 orders.');
      if (list.length === 0) throw errors.batchEmpty('orders is empty; send 1 to 100 orders.');
      if (list.length > MAX_BATCH)
        throw errors.batchTooLarge(`orders has ${list.length} items; send at most ${MAX_BATCH}.`);
      const extra = Object.keys(body as object).filter((k) => k !== 'orders');
      if (extra.length > 0) {
        throw errors.validation(
          `${extra[0]} is not an accepted property.`,
          extra.map((field) => ({ field, issue: 'is not an accepted property' })),
        );
      }
    },
    parseBody: true,
    documentedBody: BulkBody,
    response: BulkResponse,
    examples: BULK_EXAMPLES,
    handler: async ({ body, auth, log }) => {
      const list = (body as unknown as { orders: unknown[] }).orders;
      const results = await bulk.create(auth, list, log);
      const created = results.filter((r) => r.ok).length;
      return {
        body: {
          status: 'ok',
          summary: { total: results.length, created, failed: results.length - created },
          results,
        },
      };
    },
  });
