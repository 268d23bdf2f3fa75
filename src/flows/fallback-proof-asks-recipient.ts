import type { SmsSender } from '../integrations/sms/index.ts';
import type { CouriersService } from '../modules/couriers/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import type { ConfirmationService, ProofService } from '../modules/proof/index.ts';
import type { Queryable } from '../platform/db/index.ts';
import { errors } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

export interface FallbackNeeds {
  proofs: ProofService;
  proofConfirmations: ConfirmationService;
  couriers: CouriersService;
  delivery: DeliveryModule | undefined;
  dispatch: DispatchModule | undefined;
  sms: { sender: SmsSender };
  log: Logger;
}

/**
 * The delivered action's proof check, in its transaction: the recipient's code proves it; a photo or
 * signature alone does only near the drop-off (the courier's last reported position, recent enough:
 * else 409 TOO_FAR_FROM_DROPOFF or POSITION_NOT_FRESH) and leaves the delivery unconfirmed until the
 * recipient answers (the sale's money waits meanwhile; see unconfirmed-delivery-holds-payout.ts).
 */
export function requireProof(n: FallbackNeeds) {
  return async (
    tx: Queryable,
    { orderId, courierId, at }: { orderId: string; courierId: string; at?: Date | undefined },
  ) => {
    const by = await n.proofs.provenBy(orderId, tx);
    if (by === 'code') return;
    if (by === undefined)
      throw errors.validation(
        "Enter the recipient's 4-digit delivery code, or take a photo of the delivery, to finish it.",
        [{ field: 'code', issue: 'required' }],
      );
    // Read in the delivery's transaction, one after the other (the embedded database has one session).
    const courier = await n.couriers.get(courierId, tx);
    const order = await n.delivery?.orders.jobSheet(orderId, tx);
    const lat = order?.delivery_lat ?? null;
    const lng = order?.delivery_lng ?? null;
    await n.proofConfirmations.openFallback(tx, {
      orderId,
      courierId,
      position: { lat: courier.last_lat, lng: courier.last_lng, at: courier.last_position_at },
      dropoff: lat === null || lng === null ? null : { lat, lng },
      tappedAt: at,
    });
  };
}

/**
 * After the delivery's commit: the recipient of a delivery proved by a photo or signature is texted
 * the link to confirm or dispute it, once (a replayed action texts nobody). Staging's orders and the
 * sandbox courier's message nobody; a text that fails is logged (an operator can still accept it).
 */
export function textRecipient(n: FallbackNeeds) {
  return async (orderId: string, courierId: string): Promise<void> => {
    const order = await n.delivery?.orders.find(orderId);
    if (order?.environment !== 'production') return;
    if (await n.dispatch?.sandbox.is(courierId)) return;
    const body = await n.proofConfirmations.textToSend(orderId);
    if (!body) return;
    await n.sms.sender
      .send({ to: order.customer_phone, body })
      .catch((err: unknown) =>
        n.log.warn(
          { err, orderId },
          'could not text the recipient the link to confirm their delivery',
        ),
      );
  };
}
