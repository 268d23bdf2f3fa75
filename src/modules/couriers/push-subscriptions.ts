import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { PushSubscriptionInput } from './domain/push-subscription.ts';

/** A stored subscription: its session (by hash), its courier and the browser's keys. */
export interface StoredPushSubscription extends PushSubscriptionInput {
  session_hash: string;
  courier_id: string;
}

const taken = () => errors.pushEndpointTaken('This browser is registered for another courier.');

/**
 * The courier app's Web Push subscriptions, one per courier session. A session saves or removes
 * only its own (the web layer passes the signed-in session); an endpoint another courier's session
 * holds is refused, so nobody can take over another phone's notifications.
 */
export class PushSubscriptions {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  async save(courierId: string, sessionHash: string, s: PushSubscriptionInput): Promise<void> {
    const now = new Date(this.clock());
    try {
      await this.db.transaction(async (tx) => {
        const holder = await tx.query<{ courier_id: string }>(
          'select courier_id from courier_push_subscriptions where endpoint = $1 for update',
          [s.endpoint],
        );
        if (holder[0] && holder[0].courier_id !== courierId) throw taken();
        // The same browser signed in again (a new session): its old session's row makes way.
        await tx.query(
          'delete from courier_push_subscriptions where endpoint = $1 and session_hash <> $2',
          [s.endpoint, sessionHash],
        );
        await tx.query(
          `insert into courier_push_subscriptions (session_hash, courier_id, endpoint, p256dh, auth, created_at, updated_at)
           values ($1, $2, $3, $4, $5, $6, $6)
           on conflict (session_hash) do update
              set endpoint = excluded.endpoint, p256dh = excluded.p256dh, auth = excluded.auth,
                  last_offer_id = null, updated_at = excluded.updated_at`,
          [sessionHash, courierId, s.endpoint, s.p256dh, s.auth, now],
        );
      });
    } catch (err) {
      // Another courier's session saved the same endpoint at the same moment.
      if ((err as { code?: string }).code === '23505') throw taken();
      throw err;
    }
  }

  /** Removes the session's subscription; answers whether there was one. */
  async remove(sessionHash: string): Promise<boolean> {
    const rows = await this.db.query(
      'delete from courier_push_subscriptions where session_hash = $1 returning session_hash',
      [sessionHash],
    );
    return rows.length > 0;
  }

  /** Forgets an endpoint the push service says is gone (404 or 410). */
  async forgetEndpoint(endpoint: string): Promise<void> {
    await this.db.query('delete from courier_push_subscriptions where endpoint = $1', [endpoint]);
  }

  /**
   * Claims each courier's newest offer for their subscriptions not yet told of it (compare-and-set
   * on last_offer_id, so of several instances woken by one commit only one pushes it) and answers
   * those subscriptions with the offer they are to be told of.
   */
  async claim(
    offers: ReadonlyArray<{ courierId: string; offerId: string }>,
  ): Promise<Array<StoredPushSubscription & { offer_id: string }>> {
    if (offers.length === 0) return [];
    return this.db.query(
      `update courier_push_subscriptions s set last_offer_id = o.offer_id, updated_at = $3
         from unnest($1::text[], $2::text[]) as o (courier_id, offer_id)
        where s.courier_id = o.courier_id and s.last_offer_id is distinct from o.offer_id
        returning s.session_hash, s.courier_id, s.endpoint, s.p256dh, s.auth, o.offer_id`,
      [offers.map((o) => o.courierId), offers.map((o) => o.offerId), new Date(this.clock())],
    );
  }
}
