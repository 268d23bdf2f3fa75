import { describe, expect, it } from 'vitest';
import { matchCashDay, matchGatewayDay, type ReportSide } from './match.ts';

const paid = (
  reference: string,
  amountPesewas: number,
  settlementId: string | null = 'S1',
): ReportSide => ({
  kind: 'payment',
  reference,
  amountPesewas,
  status: 'success',
  succeeded: true,
  settlementId,
});

describe("a gateway's day", () => {
  it('is matched when every payment agrees and its settlement took the clearing back to zero', () => {
    const r = matchGatewayDay(
      [
        { reference: 'a', amountPesewas: -1000 },
        { reference: 'b', amountPesewas: -500 },
      ],
      [paid('a', 1000), paid('b', 500)],
      [],
      new Set(['S1']),
    );
    expect(r).toEqual({ status: 'matched', matched: 2, residuePesewas: 0, differences: [] });
  });

  it('lists each kind of difference; without its settlement the day is flagged', () => {
    const r = matchGatewayDay(
      [
        { reference: 'a', amountPesewas: -1000 },
        { reference: 'b', amountPesewas: -500 },
        { reference: 'c', amountPesewas: -300 },
      ],
      [
        paid('a', 1000),
        paid('b', 400),
        paid('d', 700),
        { ...paid('c', 300), status: 'failed', succeeded: false },
      ],
      [
        {
          settlementId: 'S1',
          amountPesewas: 2100,
          feePesewas: 30,
          linesPesewas: 2100,
          linesFeePesewas: 40,
          approval: 'approved',
        },
      ],
      new Set(),
    );
    expect(r.differences.map((d) => [d.kind, d.reference])).toEqual([
      ['amount_differs', 'b'],
      ['missing_in_ledger', 'd'],
      ['missing_in_report', 'c'],
      ['fee_differs', 'S1'],
    ]);
    expect(r).toMatchObject({ status: 'flagged', matched: 1, residuePesewas: -1800 });
  });

  it('lists a settlement that waits for approval or was rejected, and each line imported again differently', () => {
    const settlement = {
      settlementId: 'S1',
      amountPesewas: 1000,
      feePesewas: 0,
      linesPesewas: 1000,
      linesFeePesewas: 0,
    };
    const reimported = {
      kind: 'payment',
      reference: 'a',
      held: { amountPesewas: 1000, feePesewas: 0, status: 'success' },
      other: { amountPesewas: 1200, feePesewas: 0, status: 'success' },
    };
    const r = matchGatewayDay(
      [{ reference: 'a', amountPesewas: -1000 }],
      [paid('a', 1000)],
      [{ ...settlement, approval: 'proposed' }],
      new Set(),
      [reimported],
    );
    expect(r.differences).toEqual([
      {
        kind: 'settlement_not_approved',
        reference: 'S1',
        ledgerPesewas: null,
        reportPesewas: 1000,
        note: "the settlement waits for a second finance operator's approval: it is not posted to the bank",
      },
      {
        kind: 'reimported_differently',
        reference: 'a',
        ledgerPesewas: null,
        reportPesewas: 1200,
        note: 'the payment was imported again as GHS 12.00, fee 0.00, success; first as GHS 10.00, fee 0.00, success',
      },
    ]);
    expect(r.status).toBe('flagged');
    const settled = matchGatewayDay(
      [{ reference: 'a', amountPesewas: -1000 }],
      [paid('a', 1000)],
      [{ ...settlement, approval: 'approved' }],
      new Set(['S1']),
      [reimported],
    );
    expect(settled).toMatchObject({ status: 'differences', matched: 1, residuePesewas: 0 });
    expect(
      matchGatewayDay([], [], [{ ...settlement, approval: 'rejected' }], new Set()).differences[0]!
        .note,
    ).toContain('was rejected');
  });

  it('counts refunds apart from payments of the same reference', () => {
    const r = matchGatewayDay(
      [
        { reference: 'a', amountPesewas: -1000 },
        { reference: 'a', amountPesewas: 1000 },
      ],
      [paid('a', 1000), { ...paid('a', 1000), kind: 'refund' }],
      [],
      new Set(['S1']),
    );
    expect(r).toEqual({ status: 'matched', matched: 2, residuePesewas: 0, differences: [] });
  });
});

describe("couriers' cash for a day", () => {
  it('matches couriers who handed over what they collected and lists the others', () => {
    const r = matchCashDay([
      { courierId: 'c1', collectedPesewas: 500, handedOverPesewas: 500 },
      { courierId: 'c2', collectedPesewas: 800, handedOverPesewas: 300 },
      { courierId: 'c3', collectedPesewas: 0, handedOverPesewas: 200 },
    ]);
    expect(r.differences.map((d) => [d.kind, d.reference])).toEqual([
      ['cash_not_handed_over', 'c2'],
      ['handed_over_more', 'c3'],
    ]);
    expect(r).toMatchObject({ status: 'flagged', matched: 1, residuePesewas: -300 });
    expect(
      matchCashDay([{ courierId: 'c1', collectedPesewas: 500, handedOverPesewas: 500 }]).status,
    ).toBe('matched');
  });
});
