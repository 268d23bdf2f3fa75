import type { Queryable } from '../../platform/db/index.ts';
import type { DayResult, ReportSide, SettlementSide } from './domain/match.ts';
import type { ReportLine } from './domain/report.ts';
import type { Version } from './domain/versions.ts';

/** A gateway's line as held: what a re-import is compared with. */
export type HeldLine = Version & { succeeded: boolean; settlementId: string | null; day: string };

export interface ReconciliationRow {
  id: string;
  source: string;
  day: string;
  status: DayResult['status'];
  matched_count: number;
  residue_pesewas: number;
  difference_count: number;
  run_by: string;
  run_at: Date;
}

export interface DifferenceRow {
  kind: string;
  reference: string;
  ledger_pesewas: number | null;
  report_pesewas: number | null;
  note: string;
}

const ROW = `r.id, r.source, to_char(r.day, 'YYYY-MM-DD') as day, r.status, r.matched_count, r.residue_pesewas, r.run_by, r.run_at,
  (select count(*) from reconciliation_differences d where d.reconciliation_id = r.id)::int as difference_count`;

/** A report line's columns in the order the insert and the replacement both name them. */
const lineParams = (gateway: string, l: ReportLine, at: Date) => [
  gateway,
  l.kind,
  l.reference,
  l.amountPesewas,
  l.feePesewas,
  l.status,
  l.succeeded,
  l.occurredAt,
  l.day,
  l.settlementId,
  at,
];

export const reconciliationRepository = {
  /** Inserts a line not held yet; false when one with its gateway, type and reference is. */
  async insertLine(tx: Queryable, gateway: string, l: ReportLine, at: Date): Promise<boolean> {
    const rows = await tx.query(
      `insert into gateway_report_lines (gateway, kind, reference, amount_pesewas, fee_pesewas, status, succeeded, occurred_at, day, settlement_id, imported_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (gateway, kind, reference) do nothing returning 1`,
      lineParams(gateway, l, at),
    );
    return rows.length > 0;
  },

  /** The line held for this gateway, type and reference, locked until the import commits. */
  async heldLine(
    tx: Queryable,
    gateway: string,
    kind: string,
    reference: string,
  ): Promise<HeldLine> {
    const rows = await tx.query<{
      amount_pesewas: number;
      fee_pesewas: number;
      status: string;
      succeeded: boolean;
      settlement_id: string | null;
      day: string;
    }>(
      `select amount_pesewas, fee_pesewas, status, succeeded, settlement_id, to_char(day, 'YYYY-MM-DD') as day from gateway_report_lines
        where gateway = $1 and kind = $2 and reference = $3 for update`,
      [gateway, kind, reference],
    );
    const r = rows[0]!;
    return {
      amountPesewas: Number(r.amount_pesewas),
      feePesewas: Number(r.fee_pesewas),
      status: r.status,
      succeeded: r.succeeded,
      settlementId: r.settlement_id,
      day: r.day,
    };
  },

  /** Replaces a held line by the one that moved on since (succeeded, settled, or a corrected settlement). */
  async replaceLine(tx: Queryable, gateway: string, l: ReportLine, at: Date): Promise<void> {
    await tx.query(
      `update gateway_report_lines set amount_pesewas = $4, fee_pesewas = $5, status = $6, succeeded = $7, occurred_at = $8, day = $9, settlement_id = $10, imported_at = $11
        where gateway = $1 and kind = $2 and reference = $3`,
      lineParams(gateway, l, at),
    );
  },

  /** The day's payments and refunds in the gateway's reports. */
  async reportDay(db: Queryable, gateway: string, day: string): Promise<ReportSide[]> {
    const rows = await db.query<{
      kind: 'payment' | 'refund';
      reference: string;
      amount_pesewas: number;
      status: string;
      succeeded: boolean;
      settlement_id: string | null;
    }>(
      `select kind, reference, amount_pesewas, status, succeeded, settlement_id from gateway_report_lines
        where gateway = $1 and day = $2::date and kind <> 'settlement' order by reference collate "C", kind`,
      [gateway, day],
    );
    return rows.map((r) => ({
      kind: r.kind,
      reference: r.reference,
      amountPesewas: Number(r.amount_pesewas),
      status: r.status,
      succeeded: r.succeeded,
      settlementId: r.settlement_id,
    }));
  },

  /** Settlements paid on the day (succeeded), each with what the lines it pays add up to. */
  async settlementsDay(db: Queryable, gateway: string, day: string): Promise<SettlementSide[]> {
    const rows = await db.query<{
      reference: string;
      amount_pesewas: number;
      fee_pesewas: number;
      lines_pesewas: number;
      lines_fee_pesewas: number;
      approval: SettlementSide['approval'];
    }>(
      `select s.reference, s.amount_pesewas, s.fee_pesewas,
              (select a.status from settlement_approvals a where a.gateway = s.gateway and a.settlement_id = s.reference order by a.proposed_at desc, a.id desc limit 1) as approval,
              coalesce(sum(case when l.kind = 'payment' then l.amount_pesewas else -l.amount_pesewas end), 0)::bigint as lines_pesewas,
              coalesce(sum(l.fee_pesewas), 0)::bigint as lines_fee_pesewas
         from gateway_report_lines s
         left join gateway_report_lines l on l.gateway = s.gateway and l.settlement_id = s.reference and l.kind <> 'settlement' and l.succeeded
        where s.gateway = $1 and s.kind = 'settlement' and s.day = $2::date and s.succeeded
        group by s.gateway, s.reference, s.amount_pesewas, s.fee_pesewas order by s.reference collate "C"`,
      [gateway, day],
    );
    return rows.map((r) => ({
      settlementId: r.reference,
      amountPesewas: Number(r.amount_pesewas),
      feePesewas: Number(r.fee_pesewas),
      linesPesewas: Number(r.lines_pesewas),
      linesFeePesewas: Number(r.lines_fee_pesewas),
      approval: r.approval,
    }));
  },

  /** Of these settlement ids, those approved (their journal is posted). */
  async settled(db: Queryable, gateway: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await db.query<{ settlement_id: string }>(
      `select settlement_id from settlement_approvals where gateway = $1 and status = 'approved' and settlement_id = any($2::text[])`,
      [gateway, ids],
    );
    return new Set(rows.map((r) => r.settlement_id));
  },

  /** The days whose result a settlement changes: its own and those of the lines it pays. */
  async settlementDays(db: Queryable, gateway: string, settlementId: string): Promise<string[]> {
    const rows = await db.query<{ day: string }>(
      `select distinct to_char(day, 'YYYY-MM-DD') as day from gateway_report_lines
        where gateway = $1 and (settlement_id = $2 or (kind = 'settlement' and reference = $2))`,
      [gateway, settlementId],
    );
    return rows.map((r) => r.day);
  },

  /** Replaces the source's result for the day (its differences go with it). */
  async replace(
    tx: Queryable,
    r: { id: string; source: string; day: string; result: DayResult; runBy: string; at: Date },
  ): Promise<void> {
    await tx.query('delete from reconciliations where source = $1 and day = $2::date', [
      r.source,
      r.day,
    ]);
    await tx.query(
      `insert into reconciliations (id, source, day, status, matched_count, residue_pesewas, run_by, run_at) values ($1, $2, $3::date, $4, $5, $6, $7, $8)`,
      [
        r.id,
        r.source,
        r.day,
        r.result.status,
        r.result.matched,
        r.result.residuePesewas,
        r.runBy,
        r.at,
      ],
    );
    for (const [i, d] of r.result.differences.entries()) {
      await tx.query(
        `insert into reconciliation_differences (reconciliation_id, position, kind, reference, ledger_pesewas, report_pesewas, note) values ($1, $2, $3, $4, $5, $6, $7)`,
        [r.id, i, d.kind, d.reference, d.ledgerPesewas, d.reportPesewas, d.note],
      );
    }
  },

  /** Of these days, those the source already has a result for. */
  async reconciledDays(db: Queryable, source: string, days: readonly string[]): Promise<string[]> {
    const rows = await db.query<{ day: string }>(
      `select to_char(day, 'YYYY-MM-DD') as day from reconciliations where source = $1 and day = any($2::date[]) order by day`,
      [source, days],
    );
    return rows.map((r) => r.day);
  },

  async find(db: Queryable, source: string, day: string): Promise<ReconciliationRow | undefined> {
    return (
      await db.query<ReconciliationRow>(
        `select ${ROW} from reconciliations r where r.source = $1 and r.day = $2::date`,
        [source, day],
      )
    )[0];
  },

  async differences(db: Queryable, id: string): Promise<DifferenceRow[]> {
    return db.query<DifferenceRow>(
      'select kind, reference, ledger_pesewas, report_pesewas, note from reconciliation_differences where reconciliation_id = $1 order by position',
      [id],
    );
  },

  /** The newest days first, optionally of one source. */
  async list(
    db: Queryable,
    source: string | undefined,
    limit: number,
  ): Promise<ReconciliationRow[]> {
    return db.query<ReconciliationRow>(
      `select ${ROW} from reconciliations r where ($1::text is null or r.source = $1) order by r.day desc, r.source limit $2`,
      [source ?? null, limit],
    );
  },
};
