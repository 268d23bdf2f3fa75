import { Type } from '@sinclair/typebox';
import { StringEnum, strictObject } from '../../../../platform/http/schemas.ts';
import { FAILURE_REASONS } from '../../domain/index.ts';

export const OrderIdBody = strictObject({ order_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** orders.get also finds an order by the partner's own reference (additive within v1). */
export const OrderLookupBody = Type.Union(
  [
    strictObject({ order_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    strictObject({
      order_reference: Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Your order_reference, e.g. to confirm a create whose answer was lost',
      }),
    }),
  ],
  { description: 'Exactly one of order_id or order_reference' },
);

/** Additive answer fields of orders.get and orders.track, present once a delivery attempt failed. */
export const FailureFields = {
  delivery_attempts: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Trips to the recipient so far; present once a delivery attempt failed',
    }),
  ),
  failure: Type.Optional(
    Type.Object(
      {
        reason: StringEnum(FAILURE_REASONS, 'Why the courier could not deliver'),
        note: Type.Union([Type.String(), Type.Null()], {
          description: 'What happened, in the words of the courier or operator',
        }),
      },
      {
        description:
          'The latest failed delivery attempt: the order was sent out again (in_transit) or is coming back (returning, returned)',
      },
    ),
  ),
};

export const success = (message: string, data: unknown, statusCode = 200) => ({
  statusCode,
  body: { status: 'success', message, data },
});
