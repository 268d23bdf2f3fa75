import { describe, expect, it } from 'vitest';
import { reportReimport, statementReimport } from './versions.ts';

const line = (
  amountPesewas: number,
  status: string,
  more: { succeeded?: boolean; settlementId?: string | null; feePesewas?: number } = {},
) => ({
  amountPesewas,
  feePesewas: more.feePesewas ?? 10,
  status,
  succeeded: more.succeeded ?? true,
  settlementId: more.settlementId ?? null,
});

describe('a line imported again', () => {
  it("from a gateway's report: the same is nothing, succeeded or settled since is an update, any other amount, fee or status a second version", () => {
    expect(reportReimport(line(100, 'success'), line(100, 'SUCCESS'))).toBe('same');
    expect(reportReimport(line(100, 'success'), line(100, 'success', { settlementId: 'S1' }))).toBe(
      'progress',
    );
    expect(
      reportReimport(
        line(100, 'success', { settlementId: 'S1' }),
        line(100, 'success', { settlementId: null }),
      ),
    ).toBe('same');
    expect(reportReimport(line(100, 'pending', { succeeded: false }), line(120, 'success'))).toBe(
      'progress',
    );
    expect(reportReimport(line(100, 'success'), line(120, 'success'))).toBe('conflict');
    expect(reportReimport(line(100, 'success'), line(100, 'success', { feePesewas: 11 }))).toBe(
      'conflict',
    );
    expect(reportReimport(line(100, 'success'), line(100, 'failed', { succeeded: false }))).toBe(
      'conflict',
    );
    expect(
      reportReimport(
        line(100, 'failed', { succeeded: false }),
        line(100, 'abandoned', { succeeded: false }),
      ),
    ).toBe('conflict');
  });

  it('from a transfer statement: a pending transfer may end any way, a paid one be reversed for its amount; nothing else', () => {
    const t = (
      amountPesewas: number,
      status: string,
      state: 'pending' | 'paid' | 'failed' | 'reversed',
      feePesewas = 100,
    ) => ({ amountPesewas, feePesewas, status, state });
    expect(statementReimport(t(500, 'success', 'paid'), t(500, 'success', 'paid'))).toBe('same');
    expect(statementReimport(t(500, 'pending', 'pending', 0), t(500, 'success', 'paid'))).toBe(
      'progress',
    );
    expect(statementReimport(t(500, 'otp', 'pending'), t(500, 'failed', 'failed'))).toBe(
      'progress',
    );
    expect(statementReimport(t(500, 'success', 'paid'), t(500, 'reversed', 'reversed'))).toBe(
      'progress',
    );
    expect(statementReimport(t(500, 'success', 'paid'), t(400, 'reversed', 'reversed'))).toBe(
      'conflict',
    );
    expect(statementReimport(t(500, 'reversed', 'reversed'), t(500, 'success', 'paid'))).toBe(
      'conflict',
    );
    expect(statementReimport(t(500, 'success', 'paid'), t(500, 'success', 'paid', 150))).toBe(
      'conflict',
    );
    expect(statementReimport(t(500, 'failed', 'failed'), t(500, 'success', 'paid'))).toBe(
      'conflict',
    );
  });
});
