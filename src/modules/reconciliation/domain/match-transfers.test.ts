import { describe, expect, it } from 'vitest';
import { matchTransferDay, type StatementSide, type TransferRecord } from './match-transfers.ts';

const record = (
  reference: string,
  amountPesewas: number,
  state: TransferRecord['state'],
  feePesewas: number | null = 100,
): TransferRecord => ({
  reference,
  subjectId: reference,
  what: 'payout',
  amountPesewas,
  feePesewas,
  state,
});
const line = (
  reference: string,
  amountPesewas: number,
  status: string,
  state: StatementSide['state'],
  feePesewas = 100,
): StatementSide => ({ reference, amountPesewas, feePesewas, status, state });
const byRef = (...rs: TransferRecord[]) => new Map(rs.map((r) => [r.reference, r]));

describe('a day of money out', () => {
  it('is matched when every transfer agrees in status, amount and fee', () => {
    const ours = byRef(
      record('p1', 1000, 'paid'),
      record('p2', 500, 'failed', null),
      record('p3', 700, 'reversed'),
    );
    const r = matchTransferDay(
      [
        line('p1', 1000, 'success', 'paid'),
        line('p2', 500, 'failed', 'failed', 0),
        line('p3', 700, 'reversed', 'reversed'),
      ],
      ours,
      [record('p1', 1000, 'paid')],
      new Set(['p1']),
      [],
    );
    expect(r).toEqual({ status: 'matched', matched: 3, residuePesewas: 0, differences: [] });
  });

  it('lists each kind of difference, both directions', () => {
    const ours = byRef(
      record('p1', 1000, 'paid'),
      record('p2', 500, 'failed', null),
      record('p3', 700, 'paid', 50),
      record('p4', 300, 'not_sent', null),
    );
    const r = matchTransferDay(
      [
        line('p1', 900, 'success', 'paid'),
        line('p2', 500, 'success', 'paid'),
        line('p3', 700, 'success', 'paid'),
        line('p4', 300, 'pending', 'pending', 0),
        line('x9', 200, 'success', 'paid'),
        line('x10', 200, 'failed', 'failed'),
      ],
      ours,
      [record('p1', 1000, 'paid'), record('p5', 400, 'paid')],
      new Set(['p1']),
      [
        {
          kind: 'transfer',
          reference: 'p1',
          held: { amountPesewas: 900, feePesewas: 100, status: 'success' },
          other: { amountPesewas: 950, feePesewas: 100, status: 'success' },
        },
      ],
    );
    expect(r.differences.map((d) => [d.kind, d.reference])).toEqual([
      ['amount_differs', 'p1'],
      ['status_differs', 'p2'],
      ['fee_differs', 'p3'],
      ['status_differs', 'p4'],
      ['missing_in_ledger', 'x9'],
      ['missing_in_statement', 'p5'],
      ['reimported_differently', 'p1'],
    ]);
    expect(r.differences[1]).toMatchObject({
      note: 'the statement says success; the payout is failed',
    });
    expect(r.differences[2]).toMatchObject({ ledgerPesewas: 50, reportPesewas: 100 });
    expect(r.differences[6]!.note).toBe(
      'the transfer was imported again as GHS 9.50, fee 1.00, success; first as GHS 9.00, fee 1.00, success',
    );
    expect(r).toMatchObject({ status: 'differences', matched: 0, residuePesewas: 0 });
  });
});
