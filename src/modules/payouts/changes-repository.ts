import type { PayoutDestination } from '../../integrations/transfers/types.ts';
import type { Queryable } from '../../platform/db/index.ts';
import type { PayeeKind } from './domain/destinations.ts';
import type { DestinationRow } from './repository.ts';

/** A proposed destination: the destination's own fields, and who proposed and decided it. */
export interface DestinationChangeRow
  extends Omit<
    DestinationRow,
    'changed_at' | 'changed_by' | 'version' | 'verification' | 'recipient_code'
  > {
  id: string;
  proposed_by: string;
  proposed_at: Date;
  status: 'pending' | 'approved' | 'rejected';
  decided_by: string | null;
  decided_at: Date | null;
}

const COLUMNS =
  'id, payee, kind, network, number, bank_code, name, resolved_name, proposed_by, proposed_at, status, decided_by, decided_at';

/** Operators' proposed destination changes, waiting for a second operator. */
export const changesRepository = {
  /** Records a pending change; false when one is already pending for the payee (its unique index). */
  async propose(
    tx: Queryable,
    kind: PayeeKind,
    id: string,
    changeId: string,
    d: PayoutDestination,
    resolvedName: string | null,
    by: string,
    at: Date,
  ): Promise<DestinationChangeRow | undefined> {
    const rows = await tx.query<DestinationChangeRow>(
      `insert into payout_destination_changes (id, payee, vendor_id, partner_id, courier_id, kind, network, number, bank_code, name, resolved_name, proposed_by, proposed_at, status)
       values ($1, $2, $3, $4, $13, $5, $6, $7, $8, $9, $10, $11, $12, 'pending')
       on conflict (payee) where status = 'pending' do nothing returning ${COLUMNS}`,
      [
        changeId,
        `${kind}:${id}`,
        kind === 'vendor' ? id : null,
        kind === 'partner' ? id : null,
        d.kind,
        d.kind === 'mobile_money' ? d.network : null,
        d.kind === 'mobile_money' ? d.number : d.accountNumber,
        d.kind === 'bank' ? d.bankCode : null,
        d.name,
        resolvedName,
        by,
        at,
        kind === 'courier' ? id : null,
      ],
    );
    return rows[0];
  },

  async pending(db: Queryable, payee: string): Promise<DestinationChangeRow | undefined> {
    return (
      await db.query<DestinationChangeRow>(
        `select ${COLUMNS} from payout_destination_changes where payee = $1 and status = 'pending'`,
        [payee],
      )
    )[0];
  },

  async find(
    db: Queryable,
    payee: string,
    changeId: string,
  ): Promise<DestinationChangeRow | undefined> {
    return (
      await db.query<DestinationChangeRow>(
        `select ${COLUMNS} from payout_destination_changes where payee = $1 and id = $2`,
        [payee, changeId],
      )
    )[0];
  },

  /** Decides a pending change (compare-and-set): undefined when it was no longer pending. */
  async decide(
    tx: Queryable,
    changeId: string,
    status: 'approved' | 'rejected',
    by: string,
    at: Date,
  ): Promise<DestinationChangeRow | undefined> {
    const rows = await tx.query<DestinationChangeRow>(
      `update payout_destination_changes set status = $2, decided_by = $3, decided_at = $4 where id = $1 and status = 'pending' returning ${COLUMNS}`,
      [changeId, status, by, at],
    );
    return rows[0];
  },
};
