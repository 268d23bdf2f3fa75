import { describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { useConsoleWithPartner } from '../../helpers/console.ts';
import { countRows } from '../../helpers/harness.ts';
import { csrfOf, WebClient } from '../../helpers/web.ts';
import { creditedTopup, PAYSTACK_HEADER } from '../../reconciliation/helpers.ts';

describe('the console reconciliation pages', () => {
  const env = useConsoleWithPartner();
  const { signedIn } = env;

  it('lets finance upload a report (once), a second operator approve its settlement, run a day and read its differences, each audited', async () => {
    const ref = await creditedTopup(
      env.p,
      env.s,
      'paystack',
      5_000,
      new Date('2026-09-14T08:00:00Z'),
    );
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/reconciliation');
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/console/reconciliation/import"');
    expect(page.text).toContain('href="/console/reconciliation" aria-current="page"');
    expect(page.text).toContain(
      '<code>type,reference,amount,fees,status,paid_at,settlement_id</code>',
    );
    const csv = `${PAYSTACK_HEADER}\ntransaction,${ref},50.00,0.49,success,2026-09-14T08:00:00Z,WEB_SET\nsettlement,,50.00,0.50,success,2026-09-15,WEB_SET\n`;

    const imported = await web.post('/console/reconciliation/import', {
      _csrf: csrfOf(page.text),
      gateway: 'paystack',
      csv,
    });
    expect(imported.status).toBe(200);
    expect(imported.text).toContain(
      'Imported 2 of 2 lines from Paystack (0 already imported, 0 updated). 1 settlements wait for approval by a second finance operator before they post to the bank.',
    );
    expect(
      (
        await web.post('/console/reconciliation/import', {
          _csrf: csrfOf(page.text),
          gateway: 'paystack',
          csv,
        })
      ).text,
    ).toContain('Imported 0 of 2 lines');
    expect((await audited(env.p, { action: 'gateway_report.import' })).length).toBe(2);

    // The importer cannot approve it; a second finance operator can, and only then does it post.
    const [waiting] = await env.p.app.platform.reconciliation.settlements.list({
      status: 'proposed',
    });
    expect(imported.text).toContain(
      `action="/console/reconciliation/settlements/${waiting!.id}/approve"`,
    );
    const self = await web.post(`/console/reconciliation/settlements/${waiting!.id}/approve`, {
      _csrf: csrfOf(page.text),
    });
    expect(self.status).toBe(409);
    expect(self.text).toContain(
      'Not approved: A settlement is approved by a second finance operator, not the one who imported it.',
    );
    expect(
      await countRows(
        env.p,
        "select count(*)::int as n from ledger_journals where kind = 'gateway_settlement'",
      ),
    ).toBe(0);
    const checker = (await signedIn(['finance'])).web;
    const checkerPage = await checker.get('/console/reconciliation');
    const approved = await checker.post(
      `/console/reconciliation/settlements/${waiting!.id}/approve`,
      { _csrf: csrfOf(checkerPage.text) },
    );
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Approved: Paystack settlement WEB_SET is posted to the bank.');
    expect(approved.text).toContain('No settlement waits for approval.');
    expect(
      await countRows(
        env.p,
        "select count(*)::int as n from ledger_journals where kind = 'gateway_settlement'",
      ),
    ).toBe(1);
    expect(
      (await audited(env.p, { action: 'gateway_settlement.approve', target_id: waiting!.id }))
        .length,
    ).toBe(1);

    const ran = await web.post('/console/reconciliation/run', {
      _csrf: csrfOf(page.text),
      source: 'paystack',
      date: '2026-09-15',
    });
    expect(ran.status).toBe(303);
    expect(ran.location).toBe('/console/reconciliation/paystack/2026-09-15');
    const day = await web.get(ran.location!);
    expect(day.status).toBe(200);
    expect(day.text).toContain('Paystack, 2026-09-15');
    expect(day.text).toContain(
      '<td>fee_differs</td><td><code>WEB_SET</code></td><td>GHS 0.49</td><td>GHS 0.50</td>',
    );
    expect((await audited(env.p, { action: 'reconciliation.run' })).length).toBe(1);
    await web.post('/console/reconciliation/run', {
      _csrf: csrfOf(page.text),
      source: 'paystack',
      date: '2026-09-14',
    });
    const list = await web.get('/console/reconciliation');
    expect(list.text).toContain(
      '<a href="/console/reconciliation/paystack/2026-09-14">2026-09-14</a></td><td>Paystack</td><td>matched</td>',
    );
    expect(list.text).toContain(
      '<a href="/console/reconciliation/paystack/2026-09-15">2026-09-15</a></td><td>Paystack</td><td>differences</td>',
    );
  });

  it('refuses bad reports, bad days, forged and oversized posts with 4xx and imports nothing', async () => {
    const { web } = await signedIn(['admin']);
    const page = await web.get('/console/reconciliation');
    const csrf = csrfOf(page.text);
    const lines = await countRows(env.p, 'select count(*)::int as n from gateway_report_lines');
    const bad = await web.post('/console/reconciliation/import', {
      _csrf: csrf,
      gateway: 'paystack',
      csv: `${PAYSTACK_HEADER}\ntransaction,<script>,1,0,success,2026-09-14,\n`,
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('line 2: the reference must be letters');
    expect(bad.text).not.toContain('<script>,');
    expect(
      (
        await web.post('/console/reconciliation/import', {
          _csrf: csrf,
          gateway: 'visa',
          csv: PAYSTACK_HEADER,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await web.post('/console/reconciliation/import', {
          _csrf: csrf,
          gateway: 'paystack',
          csv: ' ',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await web.post('/console/reconciliation/import', {
          gateway: 'paystack',
          csv: PAYSTACK_HEADER,
        })
      ).status,
    ).toBe(403);
    const huge = await web.post('/console/reconciliation/import', {
      _csrf: csrf,
      gateway: 'paystack',
      csv: ','.repeat(400 * 1024),
    });
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('The report is too large to upload');
    expect(await countRows(env.p, 'select count(*)::int as n from gateway_report_lines')).toBe(
      lines,
    );
    expect(
      (
        await web.post('/console/reconciliation/run', {
          _csrf: csrf,
          source: 'paystack',
          date: '2026-02-30',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await web.post('/console/reconciliation/run', {
          _csrf: csrf,
          source: 'visa',
          date: '2026-09-14',
        })
      ).status,
    ).toBe(400);
    expect((await web.get('/console/reconciliation/visa/2026-09-14')).status).toBe(404);
    expect((await web.get('/console/reconciliation/paystack/2026-13-01')).status).toBe(400);
    expect((await web.get('/console/reconciliation/hubtel/2020-01-01')).status).toBe(404);
  });

  it('rejects a settlement with a reason, shows both versions of a line imported again differently, and imports a transfer statement', async () => {
    const ref = await creditedTopup(
      env.p,
      env.s,
      'paystack',
      7_000,
      new Date('2026-09-20T08:00:00Z'),
    );
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/reconciliation');
    const csrf = csrfOf(page.text);
    await web.post('/console/reconciliation/import', {
      _csrf: csrf,
      gateway: 'paystack',
      csv: `${PAYSTACK_HEADER}\ntransaction,${ref},70.00,1.37,success,2026-09-20T08:00:00Z,REJ_SET\nsettlement,,70.00,1.37,success,2026-09-21,REJ_SET\n`,
    });
    const [waiting] = (
      await env.p.app.platform.reconciliation.settlements.list({ status: 'proposed' })
    ).filter((x) => x.settlement_id === 'REJ_SET');
    const reject = (fields: Record<string, string>) =>
      web.post(`/console/reconciliation/settlements/${waiting!.id}/reject`, {
        _csrf: csrf,
        ...fields,
      });
    expect((await reject({ reason: 'no' })).status).toBe(400);
    expect((await reject({ reason: 'x'.repeat(501) })).status).toBe(400);
    expect((await reject({})).status).toBe(400);
    expect(
      (
        await web.post(`/console/reconciliation/settlements/${waiting!.id}/reject`, {
          reason: 'forged request',
        })
      ).status,
    ).toBe(403);
    expect(
      (await web.post('/console/reconciliation/settlements/stl_MISSING/approve', { _csrf: csrf }))
        .status,
    ).toBe(404);
    expect(
      (await web.post('/console/reconciliation/settlements/../approve', { _csrf: csrf })).status,
    ).toBe(404);
    // Any finance operator may reject it (its importer too, withdrawing it).
    const rejected = await reject({ reason: 'Not on the bank statement' });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('Rejected: Paystack settlement REJ_SET is not posted.');
    expect((await reject({ reason: 'Not on the bank statement' })).status).toBe(409);
    expect(
      (await audited(env.p, { action: 'gateway_settlement.reject', target_id: waiting!.id }))
        .length,
    ).toBe(1);
    expect(
      await env.p.app.platform.journals.about(['gateway_settlement'], 'paystack:REJ_SET'),
    ).toEqual([]);

    await web.post('/console/reconciliation/run', {
      _csrf: csrf,
      source: 'paystack',
      date: '2026-09-20',
    });
    const again = await web.post('/console/reconciliation/import', {
      _csrf: csrf,
      gateway: 'paystack',
      csv: `${PAYSTACK_HEADER}\ntransaction,${ref},75.00,1.37,success,2026-09-20T08:00:00Z,REJ_SET\n`,
    });
    expect(again.text).toContain(
      'Imported 0 of 1 lines from Paystack (0 already imported, 0 updated, 1 imported again differently (listed on their days)).',
    );
    const day = await web.get('/console/reconciliation/paystack/2026-09-20');
    expect(day.text).toContain(
      `<td>payment</td><td><code>${ref}</code></td><td>GHS 70.00, fee GHS 1.37, success (`,
    );
    expect(day.text).toContain('<td>GHS 75.00, fee GHS 1.37, success (');
    expect(day.text).toContain('<td>reimported_differently</td>');

    const statement = await web.post('/console/reconciliation/statement', {
      _csrf: csrf,
      csv: 'reference,transfer_code,amount,fee_charged,currency,status,updated_at\ntrf_stranger_01,,5.00,0.10,GHS,success,2026-09-20T09:00:00Z\n',
    });
    expect(statement.status).toBe(200);
    expect(statement.text).toContain(
      'Imported 1 of 1 transfers (0 already imported, 0 updated); 0 fees booked from the statement.',
    );
    expect((await audited(env.p, { action: 'transfer_statement.import' })).length).toBe(1);
    const ran = await web.post('/console/reconciliation/run', {
      _csrf: csrf,
      source: 'transfers',
      date: '2026-09-20',
    });
    expect(ran.location).toBe('/console/reconciliation/transfers/2026-09-20');
    expect((await web.get(ran.location!)).text).toContain(
      '<td>missing_in_ledger</td><td><code>trf_stranger_01</code></td>',
    );
    const lines = await countRows(env.p, 'select count(*)::int as n from transfer_statement_lines');
    const bad = await web.post('/console/reconciliation/statement', {
      _csrf: csrf,
      csv: 'reference,transfer_code,amount,fee_charged,currency,status,updated_at\nt1,,1.00,0,GHS,success,2026-09-31\n',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('line 2: the date must be YYYY-MM-DD');
    expect(
      (await web.post('/console/reconciliation/statement', { _csrf: csrf, csv: '  ' })).status,
    ).toBe(400);
    expect(
      (await web.post('/console/reconciliation/statement', { _csrf: csrf, csv: 'a\u0000b' }))
        .status,
    ).toBe(400);
    expect((await web.post('/console/reconciliation/statement', { csv: 'a,b' })).status).toBe(403);
    expect(await countRows(env.p, 'select count(*)::int as n from transfer_statement_lines')).toBe(
      lines,
    );
  });

  it('is for finance and admin only', async () => {
    const { web } = await signedIn(['support']);
    expect((await web.get('/console/reconciliation')).status).toBe(403);
    expect((await web.get('/console/reconciliation/paystack/2026-09-14')).status).toBe(403);
    const other = await web.get('/console/webhooks');
    expect(other.text).not.toContain('/console/reconciliation');
    expect(
      (
        await web.post('/console/reconciliation/run', {
          _csrf: csrfOf(other.text),
          source: 'paystack',
          date: '2026-09-14',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await web.post('/console/reconciliation/settlements/stl_X/approve', {
          _csrf: csrfOf(other.text),
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await web.post('/console/reconciliation/statement', {
          _csrf: csrfOf(other.text),
          csv: 'a,b',
        })
      ).status,
    ).toBe(403);
    const anonymous = await new WebClient(env.p.url).get('/console/reconciliation');
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/console/sign-in');
  });
});
