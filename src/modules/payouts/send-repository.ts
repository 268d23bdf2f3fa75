import type { Queryable } from '../../platform/db/index.ts';
import { payoutsChanged, type PayoutRow, type PayoutStatus } from './repository.ts';

/**
 * The one rule for handing a payout to the provider, for `payouts` aliased `p`: it is `created`, and the
 * destination it was created for is still its payee's (same version) and verified.
 */
export const SENDABLE = `p.status = 'created' and exists (
  select 1 from payout_destinations d where d.payee = p.payee and d.version = p.destination_version and d.verification = 'verified')`;

/** Payouts not yet handed to the provider: a destination replacement cancels and re-creates them. */
export const UNSENT = ['awaiting_approval', 'created'] as const satisfies readonly PayoutStatus[];

/** SQL only: claiming payouts for sending, the recovery's due payouts, and replacements. */
export const sendRepository = {
  /**
   * Claims these payouts for sending (created → sending, one more attempt) where SENDABLE holds, in the
   * caller's transaction, which must commit before the provider is called. It first share-locks their
   * payees' destination rows: a replacement locks its row for update and refuses while a payout of the
   * payee is `sending`, so either the claim commits first (the replacement then refuses) or it waits for
   * the replacement and finds its payout cancelled. Never a transfer to a destination replaced before it
   * left. Answers the payouts claimed.
   */
  async claimForSending(
    tx: Queryable,
    ids: readonly string[],
    at: Date,
    nextCheckAt: Date,
  ): Promise<Array<PayoutRow & { recipient_code: string | null }>> {
    await tx.query(
      'select 1 from payout_destinations where payee in (select payee from payouts where id = any($1::text[])) order by payee for share',
      [ids],
    );
    // With the destination's recipient at the provider, which a bulk transfer names.
    const claimed = await tx.query<PayoutRow & { recipient_code: string | null }>(
      `update payouts p set status = 'sending', updated_at = $2, attempts = attempts + 1, sending_since = $2, next_check_at = $3, checks = 0
        where p.id = any($1::text[]) and ${SENDABLE}
        returning p.*, (select d.recipient_code from payout_destinations d where d.payee = p.payee and d.version = p.destination_version) as recipient_code`,
      [ids, at, nextCheckAt],
    );
    payoutsChanged(
      tx,
      claimed.map((p) => p.payee),
    );
    return claimed;
  },

  /**
   * Applies the provider's answer to many payouts at once: those in `from` move to `to` with their
   * provider reference and fee (compare-and-set per row, so a late or repeated answer changes nothing).
   * Into `pending` their next check is `nextCheckAt`; into a final state, none. Answers the rows moved.
   */
  async moveMany(
    tx: Queryable,
    answers: ReadonlyArray<{
      id: string;
      providerReference: string | null;
      feePesewas: number | null;
    }>,
    from: readonly PayoutStatus[],
    to: 'pending' | 'paid',
    at: Date,
    nextCheckAt: Date | null,
  ): Promise<PayoutRow[]> {
    const moved = await tx.query<PayoutRow>(
      `update payouts p set status = $4, updated_at = $5, provider_reference = coalesce(x.ref, p.provider_reference), fee_pesewas = coalesce(x.fee, p.fee_pesewas),
              next_check_at = $6, checks = 0
         from unnest($1::text[], $2::text[], $3::bigint[]) as x(id, ref, fee)
        where p.id = x.id and p.status = any($7::text[]) returning p.*`,
      [
        answers.map((a) => a.id),
        answers.map((a) => a.providerReference),
        answers.map((a) => a.feePesewas),
        to,
        at,
        nextCheckAt,
        from,
      ],
    );
    payoutsChanged(
      tx,
      moved.map((p) => p.payee),
    );
    return moved;
  },

  /**
   * Takes up to `limit` payouts in one of `statuses` whose next check is due, earliest first (by the
   * next-check index), and leases them: the next check moves by the backoff (the sending grace doubled
   * at each look, at most `maxSeconds`), so another instance skips them and a payout that stays open is
   * looked at again later, never at every tick. Each batch thus starts past the last one's keys.
   */
  async lease(
    tx: Queryable,
    statuses: readonly PayoutStatus[],
    now: Date,
    limit: number,
    backoff: { graceSeconds: number; maxSeconds: number },
  ): Promise<PayoutRow[]> {
    return tx.query<PayoutRow>(
      `update payouts set next_check_at = $2::timestamptz + make_interval(secs => least($4::float8 * power(2, least(checks, 20)), $5::float8)), checks = checks + 1
        where id in (select id from payouts where status = any($1::text[]) and next_check_at <= $2 order by next_check_at, id limit $3 for update skip locked)
        returning *`,
      [statuses, now, limit, backoff.graceSeconds, backoff.maxSeconds],
    );
  },

  /** A payee's payouts not yet sent that were made for another version of its destination, locked. */
  async unsentFor(tx: Queryable, payee: string, version: number): Promise<PayoutRow[]> {
    return tx.query<PayoutRow>(
      'select * from payouts where payee = $1 and status = any($2::text[]) and destination_version is distinct from $3 order by created_at, id for update',
      [payee, UNSENT, version],
    );
  },

  async markReplaced(tx: Queryable, id: string, by: string): Promise<void> {
    await tx.query('update payouts set replaced_by = $2 where id = $1', [id, by]);
  },

  /** The payee's created payouts are due at once (its destination was just verified: the next tick sends them). */
  async dueNow(tx: Queryable, payee: string, at: Date): Promise<void> {
    await tx.query(
      "update payouts set next_check_at = $2 where payee = $1 and status = 'created'",
      [payee, at],
    );
  },

  /** Whether a payout of the payee is being handed to the provider now (claimed, its answer not yet applied). */
  async sendingTo(tx: Queryable, payee: string): Promise<string | undefined> {
    return (
      await tx.query<{ id: string }>(
        "select id from payouts where payee = $1 and status = 'sending' limit 1",
        [payee],
      )
    )[0]?.id;
  },
};
