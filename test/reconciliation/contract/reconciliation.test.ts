import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courierNear, productionOrder, toDropoff } from '../../dispatch/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { accountBalance, journalCount } from '../../helpers/ledger-read.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { ledger } from '../../../src/modules/ledger/index.ts';
import { salePaymentHeldJournal } from '../../../src/modules/catalog/domain/journals.ts';
import { orderBody, placed, SALE_SCOPES, shop } from '../../catalog/helpers.ts';
import { expectLedgerConsistent } from '../../wallet/helpers.ts';
import { approveSettlements, creditedTopup, ghs, PAYSTACK_HEADER } from '../helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
const now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  s = await createPartner(p, { environment: 'production' });
});
afterAll(() => p?.close());

const at = (day: string, time = '10:00:00') => new Date(`${day}T${time}Z`);
const importReport = (csv: string, gateway = 'paystack') =>
  p.admin('POST', '/reconciliation/imports', { gateway, csv });
const run = (source: string, date: string) =>
  p.admin('POST', '/reconciliation/days', { source, date });
const kinds = (body: any) =>
  body.difference_list
    .map((d: any) => [d.kind, d.reference])
    .sort((x: string[], y: string[]) => x.join().localeCompare(y.join()));

describe('reconciling a gateway day', () => {
  it('matches a day whose payments and settlement agree, posts the settlement once approved, and a second import changes nothing', async () => {
    const a = await creditedTopup(p, s, 'paystack', 10_000, at('2026-11-01'));
    const b = await creditedTopup(p, s, 'paystack', 5_000, at('2026-11-01', '23:59:00'));
    const report = [
      PAYSTACK_HEADER,
      `transaction,${a},100.00,1.95,success,2026-11-01T10:00:00Z,PSET_1`,
      `transaction,${b},50,0.98,success,2026-11-01 23:59:30,PSET_1`,
      'settlement,,150.00,2.93,success,2026-11-02T09:00:00Z,PSET_1',
    ].join('\n');
    const first = await importReport(report);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({
      gateway: 'paystack',
      lines: 3,
      inserted: 3,
      updated: 0,
      already_imported: 0,
      reimported_differently: 0,
      settlements_proposed: 1,
    });
    const again = await importReport(report);
    expect(again.body).toEqual({
      gateway: 'paystack',
      lines: 3,
      inserted: 0,
      updated: 0,
      already_imported: 3,
      reimported_differently: 0,
      settlements_proposed: 0,
    });
    expect(await approveSettlements(p)).toBe(1);
    expect(await journalCount(p, ['gateway_settlement'], 'paystack:PSET_1')).toBe(1);

    const day = await run('paystack', '2026-11-01');
    expect(day.status, JSON.stringify(day.body)).toBe(201);
    expect(day.body).toMatchObject({
      source: 'paystack',
      date: '2026-11-01',
      status: 'matched',
      matched: 2,
      differences: 0,
      residue_pesewas: 0,
      difference_list: [],
    });
    // The settlement day carries no payment of its own: nothing to match, nothing left.
    expect((await run('paystack', '2026-11-02')).body).toMatchObject({
      status: 'matched',
      matched: 0,
      differences: 0,
    });
    expect(await accountBalance(p, 'gateway_clearing:paystack')).toBe(0);
    expect(await accountBalance(p, 'platform_bank')).toBe(-(15_000 - 293));
    expect(await accountBalance(p, 'gateway_fees')).toBe(-293);
    await expectLedgerConsistent(p);
  });

  it('lists every kind of difference, and a day not settled back to zero is flagged until its settlement comes', async () => {
    const a = await creditedTopup(p, s, 'paystack', 10_000, at('2026-11-05'));
    const b = await creditedTopup(p, s, 'paystack', 5_000, at('2026-11-05'));
    const c = await creditedTopup(p, s, 'paystack', 3_000, at('2026-11-05'));
    await importReport(
      [
        PAYSTACK_HEADER,
        `transaction,${a},100.00,1.95,success,2026-11-05T11:00:00Z,PSET_5`,
        `transaction,${b},40.00,0.78,success,2026-11-05T11:00:00Z,PSET_5`,
        'transaction,serviceD_WAnotours,70.00,1.37,success,2026-11-05T11:00:00Z,PSET_5',
        `transaction,${c},30.00,0,failed,2026-11-05T11:00:00Z,`,
      ].join('\n'),
    );
    const flagged = await run('paystack', '2026-11-05');
    expect(flagged.body.status).toBe('flagged');
    expect(flagged.body.residue_pesewas).toBe(-18_000);
    expect(kinds(flagged.body)).toEqual([
      ['amount_differs', b],
      ['missing_in_ledger', 'serviceD_WAnotours'],
      ['missing_in_report', c],
    ]);
    expect(
      flagged.body.difference_list.find((d: any) => d.kind === 'amount_differs'),
    ).toMatchObject({ ledger_pesewas: 5_000, report_pesewas: 4_000 });

    // The settlement arrives with a fee that is not its lines' fees: approved and posted, and the day re-run replaces its result.
    await importReport(
      [PAYSTACK_HEADER, 'settlement,,210.00,4.00,success,2026-11-06,PSET_5'].join('\n'),
    );
    await approveSettlements(p);
    await run('paystack', '2026-11-05');
    const settled = await p.admin('GET', '/reconciliation/days/paystack/2026-11-05');
    expect(settled.body.status).toBe('flagged');
    expect(settled.body.residue_pesewas).toBe(-18_000 + 21_000);
    const settlementDay = (await run('paystack', '2026-11-06')).body;
    expect(kinds(settlementDay)).toEqual([['fee_differs', 'PSET_5']]);
    expect(settlementDay.difference_list[0]).toMatchObject({
      ledger_pesewas: 410,
      report_pesewas: 400,
    });
    expect(
      await countRows(
        p,
        "select count(*)::int as n from reconciliations where source = 'paystack' and day = '2026-11-05'",
      ),
    ).toBe(1);
    expect((await audited(p, { action: 'reconciliation.run' })).length).toBeGreaterThanOrEqual(5);
    await expectLedgerConsistent(p);
  });

  it('reads a Hubtel report in its own columns; a settlement first seen pending is proposed once it is settled', async () => {
    const a = await creditedTopup(p, s, 'hubtel', 4_000, at('2026-11-07'));
    const header = 'Type,Client Reference,Amount,Charges,Status,Date,Settlement Id';
    const payment = `Payment,${a},40.00,0.80,Paid,2026-11-07 10:00:00,HSET_7`;
    expect(
      (
        await importReport(
          `${header}\n${payment}\nSettlement,,40.00,0.80,Pending,2026-11-08,HSET_7\n`,
          'hubtel',
        )
      ).body,
    ).toMatchObject({ inserted: 2, settlements_proposed: 0 });
    expect((await run('hubtel', '2026-11-07')).body.status).toBe('flagged');
    const csv = `${header}\n${payment}\nSettlement,,40.00,0.80,Settled,2026-11-08,HSET_7\n`;
    expect((await importReport(csv, 'hubtel')).body).toMatchObject({
      inserted: 0,
      updated: 1,
      already_imported: 1,
      settlements_proposed: 1,
    });
    expect((await importReport(csv, 'hubtel')).body).toMatchObject({
      inserted: 0,
      updated: 0,
      settlements_proposed: 0,
    });
    await approveSettlements(p);
    expect(await journalCount(p, ['gateway_settlement'], 'hubtel:HSET_7')).toBe(1);
    expect((await run('hubtel', '2026-11-07')).body).toMatchObject({
      status: 'matched',
      matched: 1,
      residue_pesewas: 0,
    });
    expect(await accountBalance(p, 'gateway_clearing:hubtel')).toBe(0);
  });

  it("matches an online sale by the reference the gateway saw (the catalog's, through the app's wiring)", async () => {
    const buyer = await createPartner(p, { environment: 'production', scopes: SALE_SCOPES });
    const sale = await placed(buyer, orderBody(await shop(p), { payment_method: 'online' }));
    const [row] = await p.app.platform.db.query<{ client_reference: string }>(
      'select client_reference from sales where id = $1',
      [sale.sale_id],
    );
    // The gateway's money for the sale on the clearing account (as when a payment arrives in another amount).
    await p.app.platform.db.transaction((tx) =>
      ledger.postJournal(
        tx,
        salePaymentHeldJournal(sale.sale_id, 'paystack', 2_000),
        at('2026-11-08'),
      ),
    );
    await importReport(
      `${PAYSTACK_HEADER}\ntransaction,${row!.client_reference.replaceAll('_', '-')},20.00,0.39,success,2026-11-08T10:00:00Z,\n`,
    );
    expect((await run('paystack', '2026-11-08')).body).toMatchObject({
      matched: 1,
      differences: 0,
    });
  });

  it('refuses hostile input with 4xx and imports nothing of a bad report', async () => {
    const before = await countRows(p, 'select count(*)::int as n from gateway_report_lines');
    const bad = await importReport(
      `${PAYSTACK_HEADER}\ntransaction,ok_ref,1.00,0,success,2026-11-09,\ntransaction,bad ref,1.00,0,success,2026-11-09,\n`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.message).toContain('line 3: the reference');
    expect(await countRows(p, 'select count(*)::int as n from gateway_report_lines')).toBe(before);
    expect((await importReport('x', 'stripe')).status).toBe(400);
    expect(
      (
        await p.admin('POST', '/reconciliation/imports', {
          gateway: 'paystack',
          csv: 'a'.repeat(300 * 1024),
        })
      ).status,
    ).toBe(400);
    expect((await run('paystack', '2026-02-30')).status).toBe(400);
    expect((await run('visa', '2026-11-01')).status).toBe(400);
    expect((await p.admin('GET', '/reconciliation/days/paystack/2026-01-01')).status).toBe(404);
    expect((await p.admin('GET', '/reconciliation/days/paystack/not-a-day')).status).toBe(400);
  });
});

describe("reconciling couriers' cash", () => {
  it('lists a courier who kept part of the day’s cash, and the day is flagged', async () => {
    const c = await courierNear(p, 1, now);
    const orderId = await productionOrder(s);
    await toDropoff(p, orderId, c.id);
    await p.app.platform.dispatch!.service.delivered(c.id, orderId);
    const held = await p.app.platform.cash!.balance(c.id);
    expect(held).toBeGreaterThan(100);
    await p.admin('POST', `/cash/couriers/${c.id}/handovers`, { amount_pesewas: 100 });
    const today = new Date(now).toISOString().slice(0, 10);
    const day = (await run('rider_cash', today)).body;
    expect(day.status).toBe('flagged');
    expect(day.residue_pesewas).toBe(-(held - 100));
    expect(day.difference_list).toEqual([
      {
        kind: 'cash_not_handed_over',
        reference: c.id,
        ledger_pesewas: held,
        report_pesewas: 100,
        note: expect.any(String),
      },
    ]);

    await p.admin('POST', `/cash/couriers/${c.id}/handovers`, { amount_pesewas: held - 100 });
    expect((await run('rider_cash', today)).body).toMatchObject({
      status: 'matched',
      matched: 1,
      residue_pesewas: 0,
      difference_list: [],
    });
    expect(ghs(held)).toMatch(/^\d+\.\d\d$/);
  });
});
