import type { PushSender } from '../integrations/push/index.ts';
import type { PushSubscriptions, StoredPushSubscription } from '../modules/couriers/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { OpenOffer } from '../modules/dispatch/index.ts';
import type { SessionStore } from '../modules/sessions/index.ts';
import type { Logger } from '../platform/logger.ts';
import { formatGhs } from '../platform/money.ts';

/** What the courier app's service worker is handed for an offer (it draws the notification from it). */
export interface OfferPush {
  type: 'offer';
  offer_id: string;
  order_id: string;
  title: string;
  body: string;
  /** One notification per offer: a repeat replaces it rather than stacking. */
  tag: string;
  url: string;
  expires_at: string;
}

interface Deps {
  /** Each courier's newest open offer (dispatch). */
  offers: () => Promise<OpenOffer[]>;
  /** The order's pickup and fee (delivery's job sheet). */
  sheet: DeliveryModule['orders']['jobSheet'];
  subscriptions: PushSubscriptions;
  sessions: Pick<SessionStore, 'liveAmong'>;
  push: PushSender;
  clock: () => number;
  log: Logger;
}

/** A lock screen shows this: the pickup (the vendor's place, never the recipient's) and the fee. */
export function offerPush(
  offer: OpenOffer,
  sheet: {
    pickup_address: string | null;
    pickup_digital_address: string | null;
    fee_pesewas: number | null;
  },
): OfferPush {
  const pickup = (sheet.pickup_address ?? sheet.pickup_digital_address ?? 'no address given').slice(
    0,
    80,
  );
  // A batch's row names one of its orders: its fee alone would understate the offer, so none is shown.
  const batch = (offer.drops ?? 1) > 1;
  const fee = sheet.fee_pesewas === null || batch ? '' : ` · fee ${formatGhs(sheet.fee_pesewas)}`;
  return {
    type: 'offer',
    offer_id: offer.id,
    order_id: offer.order_id,
    title: batch ? `New batch offered: ${offer.drops} drops` : 'New job offered',
    body: `Pickup: ${pickup}${fee}`,
    tag: `offer-${offer.id}`,
    url: '/courier/',
    expires_at: offer.expires_at.toISOString(),
  };
}

/**
 * A new offer reaches its courier's phone by Web Push too, for when the app is in the background
 * or the screen locked. One round, run after dispatch's commits wake the instance (the courier
 * app's event streams are woken the same way): each courier's newest open offer is claimed for
 * their subscriptions not yet told of it (once, whichever instance claims), subscriptions of ended
 * sessions are dropped, and the rest are sent outside any transaction. An endpoint the push service
 * says is gone is forgotten; other failures are logged. Dispatch never waits for any of it.
 */
export function offerPushesCourier(deps: Deps): () => Promise<void> {
  return async () => {
    const offers = await deps.offers();
    const byId = new Map(offers.map((o) => [o.id, o]));
    const claimed = await deps.subscriptions.claim(
      offers.map((o) => ({ courierId: o.courier_id, offerId: o.id })),
    );
    if (claimed.length === 0) return;
    const live = await deps.sessions.liveAmong(claimed.map((s) => s.session_hash));
    await Promise.all(
      claimed.map(async (s) => {
        if (!live.has(s.session_hash))
          return void (await deps.subscriptions.remove(s.session_hash));
        const offer = byId.get(s.offer_id)!;
        const sheet = await deps.sheet(offer.order_id);
        if (sheet) await send(deps, s, offer, offerPush(offer, sheet));
      }),
    );
  };
}

async function send(
  deps: Deps,
  to: StoredPushSubscription,
  offer: OpenOffer,
  message: OfferPush,
): Promise<void> {
  // The push service keeps it no longer than the offer is open.
  const ttlSeconds = Math.max(1, Math.floor((offer.expires_at.getTime() - deps.clock()) / 1000));
  try {
    const sent = await deps.push.send(to, {
      payload: JSON.stringify(message),
      ttlSeconds,
      urgency: 'high',
    });
    if (sent === 'gone') await deps.subscriptions.forgetEndpoint(to.endpoint);
  } catch (err) {
    deps.log.warn(
      { err, courierId: to.courier_id, offerId: offer.id },
      'could not push an offer to the courier app',
    );
  }
}
