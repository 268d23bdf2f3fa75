import { Type } from '@sinclair/typebox';
import type { AuthContext } from '../../../../platform/auth/context.ts';
import { scopeCovers } from '../../../../platform/auth/scopes.ts';
import { errors } from '../../../../platform/errors.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';

export const OrderIdBody = strictObject({ order_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** orders.get also finds an order by the partner's own reference (additive within v1). */
export const OrderLookupBody = Type.Union(
  [
    strictObject({ order_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    strictObject({ order_reference: Type.String({ minLength: 1, maxLength: 100, description: 'Your order_reference, e.g. to confirm a create whose answer was lost' }) }),
  ],
  { description: 'Exactly one of order_id or order_reference' },
);

function isPartnerPaid(body: unknown): boolean {
  const payment = (body as { payment?: { payer?: unknown } } | null)?.payment;
  return typeof payment === 'object' && payment !== null && payment.payer === 'partner';
}

/** The spend scope (design: Signing) depends on the body, so it is checked right after parsing, before validation. */
export function requireSpendScope(body: unknown, auth: AuthContext): void {
  if (!isPartnerPaid(body) || scopeCovers(auth.scopes, 'delivery:wallet:spend')) return;
  // A staging key can never hold the scope: its next step is a production key, not the scope.
  throw errors.insufficientScope(
    auth.environment === 'staging'
      ? 'Wallet-funded orders (payment.payer "partner") need a production key with the scope delivery:wallet:spend, which staging keys never hold: on staging, omit payment or send payment.payer "recipient".'
      : 'Wallet-funded orders (payment.payer "partner") need the scope delivery:wallet:spend: ask the platform\'s operations team for a production key that names it.',
  );
}

export const success = (message: string, data: unknown, statusCode = 200) => ({ statusCode, body: { status: 'success', message, data } });
