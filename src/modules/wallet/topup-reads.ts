import type { Queryable } from '../../platform/db/index.ts';
import type { TopupRow } from './repository.ts';

export const TOPUP_STATES = ['initiating', 'pending', 'credited', 'failed'] as const;

/** Every partner's top-ups for operators, newest first in keyset pages (read-only; the partners' names come from accounts). */
export class TopupReads {
  constructor(private readonly db: Queryable) {}

  async list(f: {
    limit: number;
    status?: string;
    partnerId?: string;
    beforeId?: string;
  }): Promise<TopupRow[]> {
    return this.db.query<TopupRow>(
      `select t.id, t.partner_id, t.app_id, t.client_reference, t.amount_pesewas, t.gateway, t.checkout_id, t.checkout_url,
              t.status, t.credited_pesewas, t.last_gateway_status, t.created_at
         from wallet_topups t
        where ($1::text is null or t.status = $1)
          and ($2::text is null or t.partner_id = $2)
          and ($3::text is null or (t.created_at, t.id) < (select created_at, id from wallet_topups where id = $3))
        order by t.created_at desc, t.id desc
        limit $4`,
      [f.status ?? null, f.partnerId ?? null, f.beforeId ?? null, f.limit],
    );
  }

  /** The references the gateways saw for these top-ups (reconciliation matches reports by them), by top-up id. */
  async references(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db.query<{ id: string; client_reference: string }>(
      'select id, client_reference from wallet_topups where id = any($1::text[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.client_reference]));
  }
}
