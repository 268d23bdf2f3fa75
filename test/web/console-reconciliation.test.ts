import { describe, expect, it } from 'vitest';
import { useConsoleWithPartner } from '../helpers/console.ts';
import { countRows } from '../helpers/harness.ts';
import { csrfOf, WebClient } from '../helpers/web.ts';
import { creditedTopup, PAYSTACK_HEADER } from '../reconciliation/helpers.ts';

describe('the console reconciliation pages', () => {
  const env = useConsoleWithPartner();
  const { signedIn } = env;

  it('lets finance upload a report (once), run a day and read its differences, each audited', async () => {
    const ref = await creditedTopup(env.p, env.s, 'paystack', 5_000, new Date('2026-09-14T08:00:00Z'));
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/reconciliation');
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/console/reconciliation/import"');
    expect(page.text).toContain('href="/console/reconciliation" aria-current="page"');
    expect(page.text).toContain('<code>type,reference,amount,fees,status,paid_at,settlement_id</code>');
    const csv = `${PAYSTACK_HEADER}\ntransaction,${ref},50.00,0.49,success,2026-09-14T08:00:00Z,WEB_SET\nsettlement,,50.00,0.50,success,2026-09-15,WEB_SET\n`;

    const imported = await web.post('/console/reconciliation/import', { _csrf: csrfOf(page.text), gateway: 'paystack', csv });
    expect(imported.status).toBe(200);
    expect(imported.text).toContain('Imported 2 of 2 lines from Paystack (0 already imported, 0 now succeeded); 1 settlements posted to the bank.');
    expect((await web.post('/console/reconciliation/import', { _csrf: csrfOf(page.text), gateway: 'paystack', csv })).text).toContain('Imported 0 of 2 lines');
    expect(await countRows(env.p, "select count(*)::int as n from audit_log where action = 'gateway_report.import'")).toBe(2);

    const ran = await web.post('/console/reconciliation/run', { _csrf: csrfOf(page.text), source: 'paystack', date: '2026-09-15' });
    expect(ran.status).toBe(303);
    expect(ran.location).toBe('/console/reconciliation/paystack/2026-09-15');
    const day = await web.get(ran.location!);
    expect(day.status).toBe(200);
    expect(day.text).toContain('Paystack, 2026-09-15');
    expect(day.text).toContain('<td>fee_differs</td><td><code>WEB_SET</code></td><td>GHS 0.49</td><td>GHS 0.50</td>');
    expect(await countRows(env.p, "select count(*)::int as n from audit_log where action = 'reconciliation.run'")).toBe(1);
    await web.post('/console/reconciliation/run', { _csrf: csrfOf(page.text), source: 'paystack', date: '2026-09-14' });
    const list = await web.get('/console/reconciliation');
    expect(list.text).toContain('<a href="/console/reconciliation/paystack/2026-09-14">2026-09-14</a></td><td>Paystack</td><td>matched</td>');
    expect(list.text).toContain('<a href="/console/reconciliation/paystack/2026-09-15">2026-09-15</a></td><td>Paystack</td><td>differences</td>');
  });

  it('refuses bad reports, bad days, forged and oversized posts with 4xx and imports nothing', async () => {
    const { web } = await signedIn(['admin']);
    const page = await web.get('/console/reconciliation');
    const csrf = csrfOf(page.text);
    const lines = await countRows(env.p, 'select count(*)::int as n from gateway_report_lines');
    const bad = await web.post('/console/reconciliation/import', { _csrf: csrf, gateway: 'paystack', csv: `${PAYSTACK_HEADER}\ntransaction,<script>,1,0,success,2026-09-14,\n` });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('line 2: the reference must be letters');
    expect(bad.text).not.toContain('<script>,');
    expect((await web.post('/console/reconciliation/import', { _csrf: csrf, gateway: 'visa', csv: PAYSTACK_HEADER })).status).toBe(400);
    expect((await web.post('/console/reconciliation/import', { _csrf: csrf, gateway: 'paystack', csv: ' ' })).status).toBe(400);
    expect((await web.post('/console/reconciliation/import', { gateway: 'paystack', csv: PAYSTACK_HEADER })).status).toBe(403);
    const huge = await web.post('/console/reconciliation/import', { _csrf: csrf, gateway: 'paystack', csv: ','.repeat(400 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('The report is too large to upload');
    expect(await countRows(env.p, 'select count(*)::int as n from gateway_report_lines')).toBe(lines);
    expect((await web.post('/console/reconciliation/run', { _csrf: csrf, source: 'paystack', date: '2026-02-30' })).status).toBe(400);
    expect((await web.post('/console/reconciliation/run', { _csrf: csrf, source: 'visa', date: '2026-09-14' })).status).toBe(400);
    expect((await web.get('/console/reconciliation/visa/2026-09-14')).status).toBe(404);
    expect((await web.get('/console/reconciliation/paystack/2026-13-01')).status).toBe(400);
    expect((await web.get('/console/reconciliation/hubtel/2020-01-01')).status).toBe(404);
  });

  it('is for finance and admin only', async () => {
    const { web } = await signedIn(['support']);
    expect((await web.get('/console/reconciliation')).status).toBe(403);
    expect((await web.get('/console/reconciliation/paystack/2026-09-14')).status).toBe(403);
    const other = await web.get('/console/webhooks');
    expect(other.text).not.toContain('/console/reconciliation');
    expect((await web.post('/console/reconciliation/run', { _csrf: csrfOf(other.text), source: 'paystack', date: '2026-09-14' })).status).toBe(403);
    const anonymous = await new WebClient(env.p.url).get('/console/reconciliation');
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/console/sign-in');
  });
});
