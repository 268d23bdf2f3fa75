import { describe, expect, it } from 'vitest';
import { readReport } from './report.ts';
import { readStatement, type StatementLine } from './statement.ts';
import { MAX_REPORT_LINES, ReportProblem } from './table.ts';

const HEADER = 'reference,transfer_code,amount,fee_charged,currency,status,updated_at';
const ULID = '01JZ8Q4M3B6N7P9R1S2T3V4W5X';

const problems = (text: string): string[] => {
  try {
    readStatement(text);
  } catch (err) {
    if (err instanceof ReportProblem) return err.problems;
    throw err;
  }
  throw new Error('read without a problem');
};

describe("a transfer provider's statement", () => {
  it("reads Paystack's transfers: our references (shown lower case) raised again, GHS into pesewas, statuses into states, Accra days", () => {
    const lines = readStatement(
      `\uFEFFReference,Transfer_Code,Amount,Fee_Charged,Currency,Status,Updated_At\r\npout_${ULID.toLowerCase()},TRF_1a2b,120.50,1.00,GHS,success,2026-11-24T23:59:00Z\nsrf_${ULID},,10,,ghs,Reversed,2026-11-25 08:00:00\npout_x1,TRF_9,5.00,0,GHS,abandoned,2026-11-25\n`,
    );
    expect(lines).toEqual<StatementLine[]>([
      {
        line: 2,
        reference: `pout_${ULID}`,
        transferCode: 'TRF_1a2b',
        amountPesewas: 12050,
        feePesewas: 100,
        status: 'success',
        state: 'paid',
        occurredAt: new Date('2026-11-24T23:59:00Z'),
        day: '2026-11-24',
      },
      {
        line: 3,
        reference: `srf_${ULID}`,
        transferCode: null,
        amountPesewas: 1000,
        feePesewas: 0,
        status: 'reversed',
        state: 'reversed',
        occurredAt: new Date('2026-11-25T08:00:00Z'),
        day: '2026-11-25',
      },
      expect.objectContaining({ reference: 'pout_x1', state: 'failed' }),
    ]);
    expect(readStatement(`${HEADER}\na_ref,,1,0,GHS,otp,2026-11-24\n`)[0]!.state).toBe('pending');
  });

  it('refuses hostile or broken files as a whole, naming each line', () => {
    expect(problems('')[0]).toContain('the statement is empty');
    expect(problems(HEADER)[0]).toContain('no line');
    expect(problems('reference,amount\nx,1')).toContain('missing column "fee_charged"');
    expect(problems(`${HEADER}\nr1,,1,0,GHS,success,2026-11-24,\u0000\n`)[0]).toContain(
      'control characters',
    );
    const bad = problems(
      [
        HEADER,
        'r1,,1,0,NGN,success,2026-11-24',
        '=HYPERLINK(1),,1,0,GHS,success,2026-11-24',
        'r3,<b>,1,0,GHS,success,2026-11-24',
        'r4,,99999999999,0,GHS,success,2026-11-24',
        'r5,,1e3,0,GHS,success,2026-11-24',
        'r6,,1,2,GHS,success,2026-11-24',
        'r7,,1,0,GHS,paid out,2026-11-24',
        'r8,,1,0,GHS,success,2026-13-01',
        'r9,,1,0,GHS,success,1999-12-31',
        'r10,,1,0,GHS,success',
        'r11,,1,0,GHS,success,2026-11-24',
        'R11,,1,0,GHS,success,2026-11-24',
      ].join('\n'),
    );
    expect(bad).toEqual([
      'line 2: the currency must be GHS',
      'line 3: the reference must be letters, digits, _ . : - (at most 64)',
      'line 4: the transfer code must be letters, digits, _ . : - (at most 64)',
      'line 5: the amount must be in GHS with at most two decimals, like 120.50',
      'line 6: the amount must be in GHS with at most two decimals, like 120.50',
      'line 7: the fee is larger than the amount',
      'line 8: the status must be one of success, reversed, failed, abandoned, pending, otp, queued, received',
      'line 9: the date must be YYYY-MM-DD or an ISO date and time between 2000 and 2100',
      'line 10: the date must be YYYY-MM-DD or an ISO date and time between 2000 and 2100',
      'line 11: has 6 cells, the header 7',
      'line 13: transfer R11 appears twice in the statement',
    ]);
    expect(
      problems(`${HEADER}\n${'r,,1,0,GHS,success,2026-11-24\n'.repeat(MAX_REPORT_LINES + 1)}`)[0],
    ).toContain(`at most ${MAX_REPORT_LINES}`);
    expect(problems('x'.repeat(300 * 1024))[0]).toContain('larger than');
    expect(problems(`${HEADER}\n"r1,,1,0,GHS,success,2026-11-24\n`)[0]).toContain('never closed');
  });
});

/** A small deterministic generator (mulberry32), so that a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\ud800',
  '\u2028',
  '"',
  '""',
  ',',
  '\r',
  '\n',
  '=cmd|',
  '9'.repeat(40),
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '1.999',
  '2026-02-30',
  '2026-11-24T25:00',
  '9999-01-01',
  '0000-00-00',
  ' ',
  '<script>',
  'é',
  '\ufeff',
  '\t',
];

describe('the CSV readers, fuzzed', () => {
  it('either read a file whole or refuse it with problems naming lines: never anything else, never a line with a bad value', () => {
    const next = random(26);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const good = {
      statement: ['pout_r1', 'TRF_1', '12.50', '0.10', 'GHS', 'success', '2026-11-24T10:00:00Z'],
      report: ['transaction', 'r1', '12.50', '0.10', 'success', '2026-11-24', 'S1'],
    };
    for (let i = 0; i < 2000; i++) {
      const kind = i % 2 === 0 ? 'statement' : 'report';
      const rows = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, r) =>
        good[kind]
          .map((cell, c) =>
            next() < 0.2
              ? pick(NASTY) + (next() < 0.5 ? cell : '')
              : c === 1
                ? `${cell}${r}`
                : cell,
          )
          .join(','),
      );
      const text = [
        kind === 'statement' ? HEADER : 'type,reference,amount,fees,status,paid_at,settlement_id',
        ...rows,
      ].join('\n');
      try {
        const lines = kind === 'statement' ? readStatement(text) : readReport('paystack', text);
        for (const l of lines) {
          expect(
            Number.isSafeInteger(l.amountPesewas) &&
              l.amountPesewas >= 0 &&
              l.feePesewas <= l.amountPesewas,
            text,
          ).toBe(true);
          expect(l.reference, text).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/);
          expect(l.day, text).toMatch(/^20\d\d-\d\d-\d\d$/);
        }
      } catch (err) {
        expect(err, text).toBeInstanceOf(ReportProblem);
        const found = (err as ReportProblem).problems;
        expect(found.length).toBeGreaterThan(0);
        expect(found.length).toBeLessThanOrEqual(20);
      }
    }
  });
});
