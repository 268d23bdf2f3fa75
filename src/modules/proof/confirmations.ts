import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { LatLng } from '../../shared/ghana/index.ts';
import {
  checkFallback,
  CONFIRM_TOKEN,
  confirmationMessage,
  confirmationToken,
  tokenHash,
  type ConfirmationState,
  type ReportedPosition,
} from './domain/confirmation.ts';
import {
  confirmationsRepository as repo,
  type ConfirmationRow,
} from './confirmations-repository.ts';
import type { ProofSettings } from './settings.ts';

/** What the recipient may do through the link. */
export type RecipientAnswer = 'confirm' | 'dispute';

/** A dispute's note: one line of plain text. */
const MAX_NOTE = 500;
// Control characters (but tab) and NUL: refused, never stored.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/**
 * Deliveries a courier finished with a photo or signature instead of the recipient's code. The
 * fallback is allowed only near the drop-off (the courier's last reported position, recent enough);
 * it opens a pending confirmation in the delivery's transaction; the recipient is texted a link
 * (`/confirm/{token}`) to confirm or dispute it; an operator may accept it. While pending or disputed
 * the sale's shares are not paid out (`waitingAmong`, read by payouts through a port).
 */
export class ConfirmationService {
  constructor(
    private readonly deps: {
      db: Db;
      key: Buffer;
      publicBaseUrl: string;
      settings: ProofSettings;
      clock: () => number;
    },
  ) {}

  private now(): Date {
    return new Date(this.deps.clock());
  }

  /**
   * In the delivery's transaction: refuses the fallback when the courier is not near the drop-off
   * (409 TOO_FAR_FROM_DROPOFF, or POSITION_NOT_FRESH without a recent position), else opens the
   * pending confirmation (once per order).
   */
  async openFallback(
    tx: Queryable,
    input: {
      orderId: string;
      courierId: string;
      position: ReportedPosition;
      dropoff: LatLng | null;
      /** When the courier tapped "delivered" (an action queued offline is judged as of then); now by default. */
      tappedAt?: Date | undefined;
    },
  ): Promise<void> {
    if (await repo.get(tx, input.orderId)) return;
    const { fallbackMaxDistanceM: maxDistanceM, fallbackPositionMaxAgeSeconds: maxAgeSeconds } =
      this.deps.settings;
    // As of the tap, never later than now: a delivery queued offline with the position reports
    // before it is judged by where the courier was when they tapped.
    const now = this.deps.clock();
    const tapped = input.tappedAt?.getTime();
    const asOf = tapped !== undefined && Number.isFinite(tapped) ? Math.min(tapped, now) : now;
    const check = checkFallback(input.position, input.dropoff, asOf, {
      maxDistanceM,
      maxAgeSeconds,
    });
    if (!check.ok && check.problem === 'too_far')
      throw errors.tooFarFromDropoff(
        `You are about ${check.distanceM} m from the drop-off; a photo or signature is accepted within ${maxDistanceM} m. Go to the drop-off and try again, or ask the recipient for their code.`,
      );
    if (!check.ok)
      throw errors.positionNotFresh(
        `Your location at the drop-off has not been received (it must be at most ${Math.round(maxAgeSeconds / 60)} minutes old). Turn on location for the app, wait for it to send your position at the drop-off, then try again.`,
      );
    await repo.open(tx, {
      orderId: input.orderId,
      tokenHash: tokenHash(confirmationToken(this.deps.key, input.orderId)),
      courierId: input.courierId,
      distanceM: check.distanceM,
      positionAt: check.positionAt,
      now: this.now(),
    });
  }

  /** The recipient's link for the order. */
  linkFor(orderId: string): string {
    return `${this.deps.publicBaseUrl}/confirm/${confirmationToken(this.deps.key, orderId)}`;
  }

  /**
   * The text for the recipient, once per confirmation (the first caller claims it; a replayed
   * delivery answers undefined): send it after the delivery's commit.
   */
  async textToSend(orderId: string): Promise<string | undefined> {
    if (!(await repo.claimText(this.deps.db, orderId, this.now()))) return undefined;
    return confirmationMessage(this.linkFor(orderId));
  }

  /** The confirmation behind a link's token; undefined for anything else (malformed, guessed). */
  async byToken(token: string): Promise<ConfirmationRow | undefined> {
    if (!CONFIRM_TOKEN.test(token)) return undefined;
    return repo.byToken(this.deps.db, tokenHash(token));
  }

  /**
   * The recipient's answer through the link: from pending only. The same answer again (a replay, a
   * second tap) answers the row as it is; another answer after one was recorded is refused (409).
   */
  async answer(token: string, answer: RecipientAnswer, note?: string): Promise<ConfirmationRow> {
    const row = await this.byToken(token);
    if (!row) throw errors.confirmationNotFound('This link is not valid.');
    const trimmed = note?.trim() || null;
    if (trimmed !== null && (trimmed.length > MAX_NOTE || CONTROL.test(trimmed)))
      throw errors.validation(`Say what went wrong in at most ${MAX_NOTE} characters of text.`, [
        { field: 'note', issue: 'must be plain text, at most 500 characters' },
      ]);
    const to: ConfirmationState = answer === 'confirm' ? 'confirmed' : 'disputed';
    const done = await repo.decide(
      this.deps.db,
      row.order_id,
      ['pending'],
      to,
      'recipient',
      this.now(),
      answer === 'dispute' ? trimmed : null,
    );
    if (done) return done;
    const current = (await repo.get(this.deps.db, row.order_id))!;
    if (current.state === to) return current;
    throw errors.confirmationDecided(
      current.state === 'accepted'
        ? 'This delivery was already settled by our team.'
        : `You already ${current.state === 'confirmed' ? 'confirmed' : 'disputed'} this delivery.`,
    );
  }

  /** An operator accepts a pending or disputed delivery: its money is released. Answers the row before and after. */
  async accept(
    orderId: string,
    operatorId: string,
  ): Promise<{ before: ConfirmationRow; after: ConfirmationRow }> {
    const before = await repo.get(this.deps.db, orderId);
    if (!before) throw errors.confirmationNotFound(`Order ${orderId} has no delivery to confirm.`);
    const after = await repo.decide(
      this.deps.db,
      orderId,
      ['pending', 'disputed'],
      'accepted',
      operatorId,
      this.now(),
      null,
    );
    if (!after)
      throw errors.confirmationDecided(
        `The delivery of order ${orderId} is already ${before.state}.`,
      );
    return { before, after };
  }

  /** The operators' list: pending and disputed, oldest first. */
  waiting(limit = 200): Promise<ConfirmationRow[]> {
    return repo.waiting(this.deps.db, limit);
  }

  get(orderId: string, q: Queryable = this.deps.db): Promise<ConfirmationRow | undefined> {
    return repo.get(q, orderId);
  }

  /** Those of these orders whose sale's money still waits (pending or disputed). */
  waitingAmong(q: Queryable, orderIds: readonly string[]): Promise<string[]> {
    return orderIds.length ? repo.waitingAmong(q, orderIds) : Promise.resolve([]);
  }
}
