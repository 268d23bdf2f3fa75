import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  horizontalOverflow,
  consolePage,
  launchBrowser,
} from '../../helpers/browser.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';
import { creditedTopup, PAYSTACK_HEADER } from '../../reconciliation/helpers.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'console');

describe.runIf(browserAvailable)('console reconciliation in headless Chromium at 390 px', () => {
  let p: TestPlatform;
  let browser: Browser;
  let now = Date.now();
  beforeAll(async () => {
    [p, browser] = await Promise.all([startPlatform({ clock: () => now }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  it('reads a chosen file into the form, imports it, runs the day and shows its differences, by keyboard and without sideways scrolling', async () => {
    const s = await createPartner(p, { environment: 'production' });
    const ref = await creditedTopup(p, s, 'paystack', 8_000, new Date('2026-08-03T10:00:00Z'));
    const { web } = await signedInOperator(p, ['finance'], () => (now += TOTP_STEP_MS));
    const { page, violations } = await consolePage(browser, p, web.cookies.get('pp_console')!);

    await page.goto(`${p.url}/console/reconciliation`);
    await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
    const csv = `${PAYSTACK_HEADER}\ntransaction,${ref.replaceAll('_', '-')},80.00,1.56,success,2026-08-03T10:00:00Z,BR_SET\ntransaction,serviceD-WAextra,9.00,0.18,success,2026-08-03T11:00:00Z,BR_SET\n`;
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'paystack.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByLabel('Report (CSV text)').inputValue()).toBe(csv);
    await page.getByRole('button', { name: 'Import report' }).click();
    await page.getByText('Imported 2 of 2 lines from Paystack').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'reconciliation-390.png'), fullPage: true });

    await page.getByLabel('Source').selectOption('paystack');
    await page.getByLabel('Day (YYYY-MM-DD)').fill('2026-08-03');
    await page.getByLabel('Day (YYYY-MM-DD)').press('Enter');
    await page.getByRole('heading', { name: 'Paystack, 2026-08-03' }).waitFor();
    expect(
      await page.getByRole('row', { name: /missing_in_ledger serviceD_WAextra/ }).isVisible(),
    ).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'reconciliation-day-390.png'), fullPage: true });
    expect(violations).toEqual([]);
  });

  it('lets a second operator approve a settlement and reject another by keyboard, then imports a transfer statement and shows both versions of a line imported again', async () => {
    const s = await createPartner(p, { environment: 'production' });
    const ref = await creditedTopup(p, s, 'paystack', 6_000, new Date('2026-08-10T10:00:00Z'));
    const report = `${PAYSTACK_HEADER}\ntransaction,${ref},60.00,1.17,success,2026-08-10T10:00:00Z,KB_SET\nsettlement,,60.00,1.17,success,2026-08-11,KB_SET\nsettlement,,9.00,0.18,success,2026-08-11,KB_ODD\n`;
    expect(
      (await p.admin('POST', '/reconciliation/imports', { gateway: 'paystack', csv: report })).body,
    ).toMatchObject({ settlements_proposed: 2 });
    const { web } = await signedInOperator(p, ['finance'], () => (now += TOTP_STEP_MS));
    const { page, violations } = await consolePage(browser, p, web.cookies.get('pp_console')!);

    await page.goto(`${p.url}/console/reconciliation`);
    await page.getByRole('heading', { name: 'Settlements awaiting approval' }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({
      path: join(SHOTS, 'reconciliation-settlements-390.png'),
      fullPage: true,
    });
    // By keyboard: focus the approve button and press Enter; type a reason and press Enter to reject the other.
    await page.getByRole('button', { name: 'Approve settlement KB_SET' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Approved: Paystack settlement KB_SET is posted to the bank.').waitFor();
    await page.getByLabel('Reason to reject KB_ODD').focus();
    await page.keyboard.type('Not on the bank statement');
    await page.keyboard.press('Enter');
    await page.getByText('Rejected: Paystack settlement KB_ODD is not posted.').waitFor();
    await page.getByText('No settlement waits for approval.').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);

    const statement =
      'reference,transfer_code,amount,fee_charged,currency,status,updated_at\ntrf_unknown_001,,5.00,0.10,GHS,success,2026-08-10T11:00:00Z\n';
    await page.getByLabel('Statement file').setInputFiles({
      name: 'transfers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(statement),
    });
    await expect.poll(() => page.getByLabel('Statement (CSV text)').inputValue()).toBe(statement);
    await page.getByRole('button', { name: 'Import statement' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Imported 1 of 1 transfers').waitFor();
    await page.getByLabel('Source').selectOption('transfers');
    await page.getByLabel('Day (YYYY-MM-DD)').fill('2026-08-10');
    await page.getByLabel('Day (YYYY-MM-DD)').press('Enter');
    await page.getByRole('heading', { name: 'Money out (transfers), 2026-08-10' }).waitFor();
    expect(
      await page.getByRole('row', { name: /missing_in_ledger trf_unknown_001/ }).isVisible(),
    ).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);

    await p.admin('POST', '/reconciliation/days', { source: 'paystack', date: '2026-08-10' });
    await p.admin('POST', '/reconciliation/imports', {
      gateway: 'paystack',
      csv: `${PAYSTACK_HEADER}\ntransaction,${ref},65.00,1.17,success,2026-08-10T10:00:00Z,KB_SET\n`,
    });
    await page.goto(`${p.url}/console/reconciliation/paystack/2026-08-10`);
    await page.getByRole('heading', { name: 'Imported again differently' }).waitFor();
    expect(
      await page
        .getByRole('row', {
          name: /payment .* GHS 60\.00, fee GHS 1\.17, success .* GHS 65\.00, fee GHS 1\.17, success/,
        })
        .isVisible(),
    ).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'reconciliation-versions-390.png'), fullPage: true });
    expect(violations).toEqual([]);
  });
});
