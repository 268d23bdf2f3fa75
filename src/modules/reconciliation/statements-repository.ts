import type { Queryable } from '../../platform/db/index.ts';
import type { StatementSide } from './domain/match-transfers.ts';
import type { StatementLine, TransferLineState } from './domain/statement.ts';
import type { Version } from './domain/versions.ts';

/** A statement line as held: what a re-import is compared with. */
export type HeldTransfer = Version & { state: TransferLineState; day: string };

/** A statement line's columns in the order the insert and the replacement both name them. */
const lineParams = (provider: string, l: StatementLine, at: Date) => [
  provider,
  l.reference,
  l.transferCode,
  l.amountPesewas,
  l.feePesewas,
  l.status,
  l.state,
  l.occurredAt,
  l.day,
  at,
];

/** The transfer provider's statements (transfer_statement_lines), one line per transfer. */
export const statementsRepository = {
  /** Inserts a transfer not held yet; false when its reference is. */
  async insertLine(tx: Queryable, provider: string, l: StatementLine, at: Date): Promise<boolean> {
    const rows = await tx.query(
      `insert into transfer_statement_lines (provider, reference, transfer_code, amount_pesewas, fee_pesewas, status, state, occurred_at, day, imported_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (provider, reference) do nothing returning 1`,
      lineParams(provider, l, at),
    );
    return rows.length > 0;
  },

  /** The transfer held for this reference, locked until the import commits. */
  async heldLine(tx: Queryable, provider: string, reference: string): Promise<HeldTransfer> {
    const rows = await tx.query<{
      amount_pesewas: number;
      fee_pesewas: number;
      status: string;
      state: TransferLineState;
      day: string;
    }>(
      `select amount_pesewas, fee_pesewas, status, state, to_char(day, 'YYYY-MM-DD') as day from transfer_statement_lines where provider = $1 and reference = $2 for update`,
      [provider, reference],
    );
    const r = rows[0]!;
    return {
      amountPesewas: Number(r.amount_pesewas),
      feePesewas: Number(r.fee_pesewas),
      status: r.status,
      state: r.state,
      day: r.day,
    };
  },

  /** Replaces a held transfer by its later state (pending then paid, paid then reversed). */
  async replaceLine(tx: Queryable, provider: string, l: StatementLine, at: Date): Promise<void> {
    await tx.query(
      `update transfer_statement_lines set transfer_code = coalesce($3, transfer_code), amount_pesewas = $4, fee_pesewas = $5, status = $6, state = $7, occurred_at = $8, day = $9, imported_at = $10
        where provider = $1 and reference = $2`,
      lineParams(provider, l, at),
    );
  },

  /** The day's transfers on the provider's statements. */
  async day(db: Queryable, provider: string, day: string): Promise<StatementSide[]> {
    const rows = await db.query<{
      reference: string;
      amount_pesewas: number;
      fee_pesewas: number;
      status: string;
      state: TransferLineState;
    }>(
      `select reference, amount_pesewas, fee_pesewas, status, state from transfer_statement_lines where provider = $1 and day = $2::date order by reference collate "C"`,
      [provider, day],
    );
    return rows.map((r) => ({
      reference: r.reference,
      amountPesewas: Number(r.amount_pesewas),
      feePesewas: Number(r.fee_pesewas),
      status: r.status,
      state: r.state,
    }));
  },

  /** Of these references, those any statement of the provider holds. */
  async held(db: Queryable, provider: string, references: readonly string[]): Promise<Set<string>> {
    const rows = await db.query<{ reference: string }>(
      'select reference from transfer_statement_lines where provider = $1 and reference = any($2::text[])',
      [provider, references],
    );
    return new Set(rows.map((r) => r.reference));
  },
};
