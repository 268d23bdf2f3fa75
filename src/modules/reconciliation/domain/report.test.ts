import { describe, expect, it } from 'vitest';
import { MAX_REPORT_LINES, readReport, ReportProblem } from './report.ts';

const PAYSTACK = 'type,reference,amount,fees,status,paid_at,settlement_id';
const problems = (gateway: 'paystack' | 'hubtel', text: string): string[] => {
  try {
    readReport(gateway, text);
  } catch (err) {
    if (err instanceof ReportProblem) return err.problems;
    throw err;
  }
  throw new Error('read without a problem');
};

describe("a gateway's report", () => {
  it('reads Paystack lines: kinds, GHS into pesewas, Accra days, our references (Paystack shows _ as -), settlements keyed by their id', () => {
    const lines = readReport(
      'paystack',
      `\uFEFF${PAYSTACK}\r\ntransaction,serviceD_WA01,120.50,1.95,success,2026-11-24T23:59:00Z,SET_1\ntransaction,serviceD-WA02,10,0,failed,2026-11-24 08:00:00,\nsettlement,,120.5,1.95,success,2026-11-25,SET_1\n`,
    );
    expect(lines).toEqual([
      expect.objectContaining({
        kind: 'payment',
        reference: 'serviceD_WA01',
        amountPesewas: 12050,
        feePesewas: 195,
        succeeded: true,
        day: '2026-11-24',
        settlementId: 'SET_1',
      }),
      expect.objectContaining({
        kind: 'payment',
        reference: 'serviceD_WA02',
        amountPesewas: 1000,
        feePesewas: 0,
        succeeded: false,
        day: '2026-11-24',
        settlementId: null,
      }),
      expect.objectContaining({
        kind: 'settlement',
        reference: 'SET_1',
        amountPesewas: 12050,
        feePesewas: 195,
        succeeded: true,
        day: '2026-11-25',
      }),
    ]);
  });

  it("reads Hubtel's columns and words, case aside, and an offset moves the day", () => {
    const [line] = readReport(
      'hubtel',
      'Type,Client Reference,Amount,Charges,Status,Date,Settlement Id\nPayment,SC-1,5.00,0.10,Paid,2026-11-25T00:30:00+01:00,H9\n',
    );
    expect(line).toMatchObject({
      kind: 'payment',
      reference: 'SC-1',
      amountPesewas: 500,
      feePesewas: 10,
      succeeded: true,
      day: '2026-11-24',
      settlementId: 'H9',
    });
  });

  it('refuses hostile or broken files as a whole, naming each line', () => {
    expect(problems('paystack', '')[0]).toContain('empty');
    expect(problems('paystack', PAYSTACK)[0]).toContain('no line');
    expect(problems('paystack', 'type,reference\nx,y')).toContain('missing column "amount"');
    expect(problems('paystack', `${PAYSTACK},extra\n`).join()).toContain('unknown column "extra"');
    expect(problems('paystack', `${PAYSTACK},type\n`).join()).toContain('appears twice');
    expect(problems('paystack', `${PAYSTACK}\ntransaction,"a\n`)[0]).toContain('never closed');
    expect(
      problems('paystack', `${PAYSTACK}\ntransaction,a\u0000b,1,0,success,2026-11-24,\n`)[0],
    ).toContain('control characters');
    const bad = problems(
      'paystack',
      [
        PAYSTACK,
        'payment,r1,1,0,success,2026-11-24,',
        'transaction,=cmd(),1,0,success,2026-11-24,',
        'transaction,r3,-1,0,success,2026-11-24,',
        'transaction,r4,1.999,0,success,2026-11-24,',
        'transaction,r5,1,2,success,2026-11-24,',
        'transaction,r6,1,0,success,2026-02-30,',
        'transaction,r7,1,0,<b>,2026-11-24,',
        'settlement,,1,0,success,2026-11-24,',
        'transaction,r9,1,0,success,2026-11-24',
        'transaction,r10,99999999999,0,success,2026-11-24,',
        'transaction,r11,1,0,success,2026-11-24,',
        'transaction,r11,1,0,success,2026-11-24,',
      ].join('\n'),
    );
    expect(bad).toEqual([
      'line 2: type must be one of transaction, refund, settlement',
      'line 3: the reference must be letters, digits, _ . : - (at most 64)',
      'line 4: the amount must be in GHS with at most two decimals, like 120.50',
      'line 5: the amount must be in GHS with at most two decimals, like 120.50',
      'line 6: the fee is larger than the amount',
      'line 7: the date must be YYYY-MM-DD or an ISO date and time between 2000 and 2100',
      'line 8: the status must be a word such as success or paid',
      'line 9: a settlement needs its settlement id (letters, digits, _ . : -, at most 64)',
      'line 10: has 6 cells, the header 7',
      'line 11: the amount must be in GHS with at most two decimals, like 120.50',
      'line 13: payment r11 appears twice in the report',
    ]);
    const many = `${PAYSTACK}\n${'transaction,r,1,0,success,2026-11-24,\n'.repeat(MAX_REPORT_LINES + 1)}`;
    expect(problems('paystack', many)[0]).toContain(`at most ${MAX_REPORT_LINES}`);
    expect(problems('paystack', 'x'.repeat(300 * 1024))[0]).toContain('larger than');
  });
});
