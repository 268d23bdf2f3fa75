import type { Db } from '../../../platform/db/index.ts';
import { errors } from '../../../platform/errors.ts';
import { isId, newId } from '../../../platform/ids.ts';
import type { LatLng } from '../../../shared/ghana/index.ts';
import { quotesRepository as repo } from './repository.ts';

/** Whose quote it is: the app and environment of the key that asked for the estimate. */
export interface QuoteOwner {
  appId: string;
  environment: 'staging' | 'production';
}

export interface IssuedQuote {
  quote_id: string;
  quote_expires_at: string;
}

/** What an order must show to redeem a quote. */
export interface QuoteClaim {
  quoteId: string;
  orderReference: string;
  /** The test clock the order is created on: a quote holds only in the time it was issued in. */
  testClockId: string | null;
  pickup: LatLng | undefined;
  dropoff: LatLng | undefined;
}

/** The parts of an orders.create body a quote is checked against. */
interface QuotedOrder {
  order_reference: string;
  quote_id?: string | undefined;
  pickup: { coordinates?: LatLng | undefined };
  delivery: { coordinates?: LatLng | undefined };
}

// Coordinates travel as JSON numbers into double precision columns and back unchanged, so the
// points an order gives must be the very numbers the estimate priced.
const samePoint = (a: LatLng | undefined, lat: number, lng: number) =>
  a !== undefined && a.lat === lat && a.lng === lng;

/** Price locks: orders.estimate issues them, orders.create redeems each at most once. */
/** How long an expired, unredeemed quote is kept (so that a late create is told it expired). */
const SWEEP_GRACE_MS = 24 * 3_600_000;
const SWEEP_BATCH = 1_000;
/** How often the sweep runs. */
export const QUOTE_SWEEP_INTERVAL_MS = 15 * 60_000;

export class QuoteBook {
  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
  ) {}

  /**
   * Deletes the quotes no order redeemed, a day after they expired (a create naming one until then
   * is still told QUOTE_EXPIRED), in batches; a redeemed quote stays with its order.
   */
  async sweep(now: Date): Promise<number> {
    const before = new Date(now.getTime() - SWEEP_GRACE_MS);
    let deleted = 0;
    for (let n = SWEEP_BATCH; n === SWEEP_BATCH; deleted += n)
      n = await repo.sweep(this.db, before, SWEEP_BATCH);
    return deleted;
  }

  /** Records the standard fee of a route for the owner, valid for the configured time (on a test clock, of its time). */
  async issue(
    owner: QuoteOwner,
    pickup: LatLng,
    dropoff: LatLng,
    feePesewas: number,
    now: Date,
    testClockId: string | null = null,
  ): Promise<IssuedQuote> {
    const id = newId('quo');
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    await repo.insert(this.db, {
      id,
      app_id: owner.appId,
      environment: owner.environment,
      pickup_lat: pickup.lat,
      pickup_lng: pickup.lng,
      dropoff_lat: dropoff.lat,
      dropoff_lng: dropoff.lng,
      fee_pesewas: feePesewas,
      created_at: now,
      expires_at: expiresAt,
      test_clock_id: testClockId,
    });
    return { quote_id: id, quote_expires_at: expiresAt.toISOString() };
  }

  /** The quoted fee of an order that names a quote (see redeemable). */
  feeOf(
    owner: QuoteOwner,
    order: QuotedOrder,
    now: Date,
    testClockId: string | undefined,
  ): Promise<number> {
    const claim = {
      testClockId: testClockId ?? null,
      quoteId: order.quote_id ?? '',
      orderReference: order.order_reference,
      pickup: order.pickup.coordinates,
      dropoff: order.delivery.coordinates,
    };
    return this.redeemable(owner, claim, now);
  }

  /**
   * The quoted fee, when the quote may price this order now; otherwise the named 400. A repeat of
   * the order that redeemed it is the order's own duplicate (409), as without a quote. The unique
   * index on the order's quote_id settles two orders racing for one quote.
   */
  async redeemable(owner: QuoteOwner, claim: QuoteClaim, now: Date): Promise<number> {
    const quote = isId('quo', claim.quoteId) ? await repo.find(this.db, claim.quoteId) : undefined;
    if (!quote || quote.app_id !== owner.appId || quote.environment !== owner.environment)
      throw errors.quoteNotFound('No quote with this quote_id exists for this app and key.', [
        { field: 'quote_id', issue: 'is not a quote issued to this app and environment' },
      ]);
    if (quote.used_by !== null) {
      if (quote.used_reference === claim.orderReference)
        throw errors.duplicateOrderReference(
          'An order with this order_reference already exists for this app; fetch it with orders.get.',
        );
      throw errors.quoteAlreadyUsed('Another order already redeemed this quote_id.', [
        { field: 'quote_id', issue: 'was already used by another order' },
      ]);
    }
    if (quote.test_clock_id !== claim.testClockId)
      throw errors.quoteMismatch(
        'The quote was priced on another test clock (or without one): ask orders.estimate with the same test_clock_id as the order.',
        [{ field: 'test_clock_id', issue: 'must be the test clock the quote was issued on' }],
      );
    if (now.getTime() >= quote.expires_at.getTime())
      throw errors.quoteExpired(
        `The quote expired at ${quote.expires_at.toISOString()}; ask orders.estimate for a new one.`,
        [{ field: 'quote_id', issue: 'has expired' }],
      );
    const issues = [
      ...(samePoint(claim.pickup, quote.pickup_lat, quote.pickup_lng)
        ? []
        : [{ field: 'pickup.coordinates', issue: 'must be the pickup point the quote priced' }]),
      ...(samePoint(claim.dropoff, quote.dropoff_lat, quote.dropoff_lng)
        ? []
        : [
            { field: 'delivery.coordinates', issue: 'must be the delivery point the quote priced' },
          ]),
    ];
    if (issues.length > 0)
      throw errors.quoteMismatch(
        `${issues[0]!.field} ${issues[0]!.issue}: the quote holds only for the route it priced.`,
        issues,
      );
    return quote.fee_pesewas;
  }
}
