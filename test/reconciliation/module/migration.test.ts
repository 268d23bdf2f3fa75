import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../../src/platform/db/migrate.ts';
import type { DriverDb } from '../../../src/platform/db/types.ts';
import { onRawPglite, onRawSchema } from '../../helpers/raw-db.ts';

// Migration 045 starts maker-checker on settlements: those imported before it were posted on import.

async function settlementsBefore045StandApproved(db: DriverDb) {
  const all = readMigrations();
  await migrate(
    db,
    all.filter((m) => m.version < 45),
  );
  const line = (kind: string, reference: string, amount: number, succeeded: boolean) =>
    db.query(
      `insert into gateway_report_lines (gateway, kind, reference, amount_pesewas, fee_pesewas, status, succeeded, occurred_at, day, settlement_id, imported_at)
       values ('paystack', $1, $2, $3, 0, 'x', $4, '2026-09-01T10:00:00Z', '2026-09-01', $5, '2026-09-02T08:00:00Z')`,
      [kind, reference, amount, succeeded, kind === 'settlement' ? reference : null],
    );
  await line('settlement', 'OLD_1', 5_000, true);
  await line('settlement', 'OLD_PENDING', 4_000, false);
  await line('payment', 'serviceD_WAold', 5_000, true);
  expect(await migrate(db, all)).toContain(45);
  expect(
    await db.query(
      'select gateway, settlement_id, amount_pesewas::int as amount, status, proposed_by, decided_by from settlement_approvals',
    ),
  ).toEqual([
    {
      gateway: 'paystack',
      settlement_id: 'OLD_1',
      amount: 5_000,
      status: 'approved',
      proposed_by: 'migration 045',
      decided_by: 'migration 045',
    },
  ]);
}

describe('migration 045', () => {
  it('records the settlements posted before it as approved (embedded)', () =>
    onRawPglite(settlementsBefore045StandApproved));

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'records the settlements posted before it as approved (PostgreSQL)',
    () => onRawSchema(settlementsBefore045StandApproved),
  );
});
