import type { Queryable } from '../../platform/db/index.ts';
import type { ReimportedSide } from './domain/match.ts';
import type { Version } from './domain/versions.ts';

/** A second version of a line, with the one held, as the day view shows both. */
export interface VersionRow {
  kind: string;
  reference: string;
  held: Version & { imported_at: Date };
  other: Version & { imported_at: Date; imported_by: string };
}

interface Row {
  kind: string;
  reference: string;
  amount_pesewas: number;
  fee_pesewas: number;
  status: string;
  imported_at: Date;
  imported_by: string;
  held_amount: number;
  held_fee: number;
  held_status: string;
  held_at: Date;
}

const asVersion = (r: Row): VersionRow => ({
  kind: r.kind,
  reference: r.reference,
  held: {
    amountPesewas: Number(r.held_amount),
    feePesewas: Number(r.held_fee),
    status: r.held_status,
    imported_at: r.held_at,
  },
  other: {
    amountPesewas: Number(r.amount_pesewas),
    feePesewas: Number(r.fee_pesewas),
    status: r.status,
    imported_at: r.imported_at,
    imported_by: r.imported_by,
  },
});

// The version's own day or its held line's: a corrected date must not hide it from either day.
const OF_DAY = `select v.kind, v.reference, v.amount_pesewas, v.fee_pesewas, v.status, v.imported_at, v.imported_by,
                       h.amount_pesewas as held_amount, h.fee_pesewas as held_fee, h.status as held_status, h.imported_at as held_at`;

/** Lines imported again with another amount, fee or status (report_line_versions), beside the held ones. */
export const versionsRepository = {
  /** Keeps a second version once (the same one again is a no-op): true when it is new. */
  async add(
    tx: Queryable,
    v: {
      source: string;
      kind: string;
      reference: string;
      version: Version;
      occurredAt: Date;
      day: string;
      by: string;
      at: Date;
    },
  ): Promise<boolean> {
    const rows = await tx.query(
      `insert into report_line_versions (source, kind, reference, amount_pesewas, fee_pesewas, status, occurred_at, day, imported_by, imported_at)
       values ($1, $2, $3, $4, $5, lower($6), $7, $8, $9, $10) on conflict do nothing returning 1`,
      [
        v.source,
        v.kind,
        v.reference,
        v.version.amountPesewas,
        v.version.feePesewas,
        v.version.status,
        v.occurredAt,
        v.day,
        v.by,
        v.at,
      ],
    );
    return rows.length > 0;
  },

  /** A gateway's second versions on a day. */
  async reportDay(db: Queryable, gateway: string, day: string): Promise<VersionRow[]> {
    const rows = await db.query<Row>(
      `${OF_DAY} from report_line_versions v join gateway_report_lines h on h.gateway = v.source and h.kind = v.kind and h.reference = v.reference
        where v.source = $1 and v.kind <> 'transfer' and (v.day = $2::date or h.day = $2::date) order by v.reference collate "C", v.imported_at`,
      [gateway, day],
    );
    return rows.map(asVersion);
  },

  /** A transfer provider's second versions on a day. */
  async statementDay(db: Queryable, provider: string, day: string): Promise<VersionRow[]> {
    const rows = await db.query<Row>(
      `${OF_DAY} from report_line_versions v join transfer_statement_lines h on h.provider = v.source and h.reference = v.reference
        where v.source = $1 and v.kind = 'transfer' and (v.day = $2::date or h.day = $2::date) order by v.reference collate "C", v.imported_at`,
      [provider, day],
    );
    return rows.map(asVersion);
  },
};

export const asReimported = (rows: readonly VersionRow[]): ReimportedSide[] =>
  rows.map((r) => ({ kind: r.kind, reference: r.reference, held: r.held, other: r.other }));
