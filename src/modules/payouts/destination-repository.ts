import type { Queryable } from '../../platform/db/index.ts';
import type { Verdict } from './domain/destinations.ts';
import { DESTINATION_COLUMNS, type DestinationRow } from './repository.ts';

/** SQL only: a destination's lock for its replacement, and its verification. */
export const destinationRepository = {
  /** The payee's destination, locked for update (a replacement, or a re-creation of payouts against it). */
  async lock(tx: Queryable, payee: string): Promise<DestinationRow | undefined> {
    return (
      await tx.query<DestinationRow>(
        `select ${DESTINATION_COLUMNS} from payout_destinations where payee = $1 for update`,
        [payee],
      )
    )[0];
  },

  /** Applies the provider's verdict to the version it was asked about, if that version is still current and unverified. */
  async applyVerdict(
    tx: Queryable,
    payee: string,
    version: number,
    v: Verdict,
  ): Promise<DestinationRow | undefined> {
    const rows = await tx.query<DestinationRow>(
      `update payout_destinations set verification = $3, resolved_name = coalesce($4, resolved_name), recipient_code = $5, review_reason = $6
        where payee = $1 and version = $2 and verification = 'unverified' returning ${DESTINATION_COLUMNS}`,
      [payee, version, v.verification, v.resolvedName, v.recipientCode, v.reviewReason],
    );
    return rows[0];
  },

  /** An operator accepts a destination that needs review: compare-and-set on its version. */
  async accept(
    tx: Queryable,
    payee: string,
    version: number,
    by: string,
  ): Promise<DestinationRow | undefined> {
    const rows = await tx.query<DestinationRow>(
      `update payout_destinations set verification = 'verified', reviewed_by = $3
        where payee = $1 and version = $2 and verification = 'needs_review' returning ${DESTINATION_COLUMNS}`,
      [payee, version, by],
    );
    return rows[0];
  },

  /** Destinations the provider has not checked yet (it was down, or the process stopped), oldest change first. */
  async unverified(
    db: Queryable,
    limit: number,
  ): Promise<Array<Pick<DestinationRow, 'payee' | 'version'>>> {
    return db.query(
      "select payee, version from payout_destinations where verification = 'unverified' order by changed_at, payee limit $1",
      [limit],
    );
  },
};
