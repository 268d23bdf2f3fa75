import type { Queryable } from '../../platform/db/index.ts';
import type { ActivationFields } from './domain/fields.ts';
import type { ActivationState } from './domain/states.ts';

export interface ActivationRow extends ActivationFields {
  id: string;
  partner_id: string;
  state: ActivationState;
  updated_by_member: string | null;
  submitted_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  rejection_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLS = `id, partner_id, state, business_name, registration_number, director_ghana_card, settlement, digital_address, contact_phone,
  updated_by_member, submitted_at, decided_at, decided_by, rejection_reason, created_at, updated_at`;

export const activationRepository = {
  async forPartner(
    db: Queryable,
    partnerId: string,
    forUpdate = false,
  ): Promise<ActivationRow | undefined> {
    return (
      await db.query<ActivationRow>(
        `select ${COLS} from activation_requests where partner_id = $1${forUpdate ? ' for update' : ''}`,
        [partnerId],
      )
    )[0];
  },

  async get(db: Queryable, id: string, forUpdate = false): Promise<ActivationRow | undefined> {
    return (
      await db.query<ActivationRow>(
        `select ${COLS} from activation_requests where id = $1${forUpdate ? ' for update' : ''}`,
        [id],
      )
    )[0];
  },

  /** Creates the partner's draft if it has none (a concurrent create loses quietly); the caller then locks it. */
  async ensure(db: Queryable, id: string, partnerId: string, at: Date): Promise<void> {
    await db.query(
      `insert into activation_requests (id, partner_id, created_at, updated_at) values ($1, $2, $3, $3) on conflict (partner_id) do nothing`,
      [id, partnerId, at],
    );
  },

  /** Writes the whole row's editable part and its state. */
  async save(db: Queryable, row: ActivationRow): Promise<ActivationRow> {
    const rows = await db.query<ActivationRow>(
      `update activation_requests set state = $2, business_name = $3, registration_number = $4, director_ghana_card = $5, settlement = $6::jsonb,
              digital_address = $7, contact_phone = $8, updated_by_member = $9, submitted_at = $10, decided_at = $11, decided_by = $12,
              rejection_reason = $13, updated_at = $14
        where id = $1 returning ${COLS}`,
      [
        row.id,
        row.state,
        row.business_name,
        row.registration_number,
        row.director_ghana_card,
        row.settlement === null ? null : JSON.stringify(row.settlement),
        row.digital_address,
        row.contact_phone,
        row.updated_by_member,
        row.submitted_at,
        row.decided_at,
        row.decided_by,
        row.rejection_reason,
        row.updated_at,
      ],
    );
    return rows[0]!;
  },

  /** The queue: oldest first (ids follow creation time), optionally in one state; keyset by id. */
  async list(
    db: Queryable,
    f: { state?: ActivationState; limit: number; after?: string },
  ): Promise<ActivationRow[]> {
    return db.query<ActivationRow>(
      `select ${COLS} from activation_requests where ($1::text is null or state = $1) and ($2::text is null or id > $2) order by id limit $3`,
      [f.state ?? null, f.after ?? null, f.limit],
    );
  },
};
