import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor } from '../../operators/helpers.ts';
import {
  browserAvailable,
  launchBrowser,
  VIEWPORTS,
  watchPage,
  checkBothWidths,
  signUpInBrowser,
} from '../../helpers/browser.ts';
import { enrolledOperator, OPERATOR_PASSWORD } from '../../helpers/console.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  createVendor,
  decide,
  orderBody as catalogOrder,
  placed,
  SALE_SCOPES,
  shop,
} from '../../catalog/helpers.ts';
import { checkerToken, HOUR, settleSale } from '../../payouts/helpers.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { ROOT } from '../../helpers/process.ts';
import { newEmail } from '../../helpers/web.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'console');

describe.runIf(browserAvailable)(
  'activation end to end in headless Chromium: partner, operator console, production key',
  () => {
    let p: TestPlatform;
    let browser: Browser;
    // The operator's codes are computed from the server's clock, which this test moves step by step.
    let now = Date.now();
    const transfers = new FakeTransfers();
    beforeAll(async () => {
      [p, browser] = await Promise.all([
        startPlatform({ clock: () => now, transfers }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
    });

    it('sign up → activation form submitted → operator signs in with a code and approves → production key with money scopes', async () => {
      const partner = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const partnerCsp = watchPage(partner).violations;
      const email = newEmail('journey');
      await signUpInBrowser(partner, p, 'Kofi Foods', email);
      await partner.getByRole('link', { name: 'Production activation' }).click();

      // A mistake first: the message sits under the field.
      await partner.getByLabel('Registered business name').fill('Kofi Foods Ltd');
      await partner.getByLabel('Registration number').fill('CS12');
      await partner.getByRole('button', { name: 'Save draft' }).click();
      await partner
        .getByText('Registration number must be two letters and 6 to 12 digits')
        .waitFor();
      await checkBothWidths(partner, SHOTS, 'activation-problem');
      await partner.getByLabel('Registration number').fill('CS123456789');
      await partner.getByLabel("Director's Ghana Card number").fill('GHA-123456789-0');
      await partner.getByLabel('Kind').selectOption('mobile_money');
      await partner.getByLabel('Mobile money network').selectOption('MTN');
      await partner.getByLabel('Mobile money number').fill('024 412 3456');
      await partner.getByLabel('GhanaPostGPS address').fill('GA-183-8164');
      await partner.getByLabel('Contact phone').fill('0302 123 456');
      await partner.getByRole('button', { name: 'Submit for review' }).click();
      expect(await partner.locator('#activation-state').textContent()).toBe('submitted');

      now += 30_000;
      const op = await enrolledOperator(p, ['support'], now);
      now += 30_000;
      const console = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const consoleCsp = watchPage(console).violations;
      await console.goto(`${p.url}/console`);
      await console.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
      await checkBothWidths(console, SHOTS, 'console-sign-in');
      await console.getByLabel('Email').fill(op.email);
      await console.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await console.getByLabel('Authenticator code').fill(codeFor(op.secret, now));
      await console.getByRole('button', { name: 'Sign in' }).click();
      await console.getByRole('heading', { name: 'Activation queue' }).waitFor();
      await checkBothWidths(console, SHOTS, 'console-queue');
      await console.getByRole('link', { name: /^act_/ }).first().click();
      await console.getByRole('heading', { name: 'Kofi Foods Ltd' }).waitFor();
      expect(await console.getByText('Mobile money, MTN +233244123456').isVisible()).toBe(true);
      await checkBothWidths(console, SHOTS, 'console-request');
      await console.getByRole('button', { name: 'Approve production access' }).click();
      expect(await console.locator('#request-state').textContent()).toBe('approved');
      await checkBothWidths(console, SHOTS, 'console-approved');
      await console.getByRole('link', { name: 'Partners' }).click();
      await console.getByLabel('Name or partner id').fill('Kofi');
      await console.getByRole('button', { name: 'Search' }).click();
      await console.getByRole('link', { name: 'Kofi Foods' }).click();
      expect(await console.locator('#partner-status').textContent()).toBe('active');
      await checkBothWidths(console, SHOTS, 'console-partner');
      await console.getByRole('link', { name: 'Webhooks' }).click();
      await console.getByRole('heading', { name: 'Webhook dead letters' }).waitFor();
      await checkBothWidths(console, SHOTS, 'console-webhooks');

      await partner.goto(`${p.url}/dashboard/apps`);
      await partner.getByLabel('App name').fill('Kofi till');
      await partner.getByRole('button', { name: 'Create app' }).click();
      await partner.goto(`${p.url}/dashboard/activation`);
      expect(await partner.locator('#activation-state').textContent()).toBe('approved');
      await partner.getByLabel('delivery:read').check();
      await partner.getByLabel('delivery:wallet:spend').check();
      await partner.getByRole('button', { name: 'Create a production key' }).click();
      expect(await partner.locator('#api-key').textContent()).toMatch(/^pk_production_/);
      await checkBothWidths(partner, SHOTS, 'production-key');

      expect(partnerCsp).toEqual([]);
      expect(consoleCsp).toEqual([]);
    }, 120_000);

    it('the orders board, an order moved, the catalog and the enrolment page: no CSP violation, no sideways scroll', async () => {
      const shop = await createPartner(p, {
        environment: 'staging',
        scopes: ['delivery:read', 'delivery:write'],
      });
      const placed = await shop.client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ order_reference: 'BOARD-LONG-REFERENCE-0001' }),
      });
      expect(placed.status).toBe(201);
      now += 30_000;
      const op = await enrolledOperator(p, ['admin'], now);
      now += 30_000;
      const page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const csp = watchPage(page).violations;
      await page.goto(`${p.url}/console/enrol`);
      await page.getByRole('heading', { name: 'Enrol an authenticator' }).waitFor();
      await checkBothWidths(page, SHOTS, 'console-enrol');
      await page.goto(`${p.url}/console/sign-in`);
      await page.getByLabel('Email').fill(op.email);
      await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await page.getByLabel('Authenticator code').fill(codeFor(op.secret, now));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Activation queue' }).waitFor();
      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await checkBothWidths(page, SHOTS, 'console-orders');
      await page.getByRole('link', { name: 'BOARD-LONG-REFERENCE-0001' }).click();
      await page.getByLabel('Move to').selectOption('accepted');
      await page.getByRole('button', { name: 'Move' }).click();
      await page.getByText('Moved to accepted.').waitFor();
      await checkBothWidths(page, SHOTS, 'console-order');
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.getByRole('heading', { name: 'Catalog: vendors' }).waitFor();
      await checkBothWidths(page, SHOTS, 'console-catalog');
      await page.goto(`${p.url}/console/partners/${shop.partnerId}`);
      await page.getByRole('button', { name: 'Set the rate limits' }).waitFor();
      await checkBothWidths(page, SHOTS, 'console-partner-limits');
      await page.goto(`${p.url}/console/partners/${shop.partnerId}/wallet`);
      await page.getByRole('heading', { name: /^Wallet of/ }).waitFor();
      await checkBothWidths(page, SHOTS, 'console-wallet');
      expect(csp).toEqual([]);
    }, 120_000);

    it('a vendor edited (a refused rate first) and a sale with its settlement: no CSP violation, no sideways scroll', async () => {
      // Orders are signed with the real time: the server's clock comes back to it for this journey.
      now = Date.now();
      const s = await shop(p, {
        vendor: { name: 'Makola Kente House and Sons Trading Enterprise' },
      });
      const seller = await createPartner(p, { environment: 'production', scopes: SALE_SCOPES });
      const sale = await placed(
        seller,
        catalogOrder(s, { payment_method: 'online', reseller_markup_ghs: 12.5 }),
      );
      expect(await decide(sale.checkout_url, 'pay')).toBe(200);
      now += 30_000;
      const op = await enrolledOperator(p, ['admin'], now);
      now += 30_000;
      const page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const csp = watchPage(page).violations;
      await page.goto(`${p.url}/console/sign-in`);
      await page.getByLabel('Email').fill(op.email);
      await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await page.getByLabel('Authenticator code').fill(codeFor(op.secret, now));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Activation queue' }).waitFor();
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page
        .getByRole('link', { name: 'Makola Kente House and Sons Trading Enterprise' })
        .click();
      await page.getByLabel('Commission rate').fill('1.25');
      await page.getByRole('button', { name: 'Save the vendor' }).click();
      await page.getByText('commission_rate must be from 0 to 1').waitFor();
      expect(await page.getByLabel('Commission rate').inputValue()).toBe('1.25');
      await checkBothWidths(page, SHOTS, 'console-vendor-problem');
      await page.getByLabel('Commission rate').fill('0.125');
      await page.getByLabel('Pickup address').fill('Kejetia Market, Kumasi');
      await page.getByLabel('Pickup latitude').fill('6.6966');
      await page.getByLabel('Pickup longitude').fill('-1.6244');
      await page.getByRole('button', { name: 'Save the vendor' }).click();
      await page.getByText('Makola Kente House and Sons Trading Enterprise: saved.').waitFor();
      expect(await page.locator('#vendor-commission').textContent()).toBe('12.50 %');
      await checkBothWidths(page, SHOTS, 'console-vendor');
      await page.getByRole('link', { name: 'Sales', exact: true }).click();
      await page.getByRole('heading', { name: 'Sales' }).waitFor();
      await page.getByLabel('State').selectOption('confirmed');
      await page.getByRole('button', { name: 'Filter' }).click();
      await checkBothWidths(page, SHOTS, 'console-sales');
      await page.getByRole('link', { name: sale.reference }).click();
      expect(await page.locator('#sale-state').textContent()).toBe('confirmed');
      await checkBothWidths(page, SHOTS, 'console-sale');
      await page.getByRole('link', { name: /^Journal jrn_/ }).click();
      await page.getByText('Balanced: debits equal credits.').waitFor();
      expect(csp).toEqual([]);
    }, 120_000);
    it('payouts: a destination set, a run, the maker refused as checker: no CSP violation, no sideways scroll', async () => {
      now = Date.now();
      const vendor = (await createVendor(p)).vendor_id as string;
      await settleSale(p, `vendor_payable:${vendor}`, 4200, now - 30 * HOUR);
      now += 30_000;
      const op = await enrolledOperator(p, ['finance'], now);
      now += 30_000;
      const page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
      const csp = watchPage(page).violations;
      await page.goto(`${p.url}/console/sign-in`);
      await page.getByLabel('Email').fill(op.email);
      await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await page.getByLabel('Authenticator code').fill(codeFor(op.secret, now));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Activation queue' }).waitFor();
      await page.goto(`${p.url}/console/payees/vendor/${vendor}`);
      await page.getByLabel('Wallet number (mobile money)').fill('024 555 0101');
      await page.getByLabel('Registered name').fill('Kofi Boateng');
      await page.getByRole('button', { name: 'Propose destination' }).click();
      await page.getByText('Change proposed: a second operator must approve it').waitFor();
      // The proposer's own approval is refused on the page; a second operator approves it (here through the API).
      await page.getByRole('button', { name: 'Approve the change' }).click();
      await page
        .getByText('Not approved: A destination change is approved by a second operator')
        .waitFor();
      await checkBothWidths(page, SHOTS, 'console-payee');
      const changeId = (await page
        .locator('input[name="change_id"]')
        .first()
        .getAttribute('value'))!;
      expect(
        (
          await p.admin(
            'POST',
            `/payees/vendor/${vendor}/destination/approve`,
            { change_id: changeId },
            await checkerToken(p),
          )
        ).status,
      ).toBe(200);
      await page.getByRole('link', { name: 'Payouts', exact: true }).click();
      await page.getByRole('button', { name: 'Run payouts now' }).click();
      // The run's page follows the background worker until the run is done: one payout, waiting for a checker.
      await page.locator('[data-field="status"]', { hasText: 'done' }).waitFor();
      expect(await page.locator('[data-field="awaiting_approval"]').textContent()).toBe('1');
      await checkBothWidths(page, SHOTS, 'console-payout-run');
      await page.getByRole('link', { name: 'All payouts and runs' }).click();
      await checkBothWidths(page, SHOTS, 'console-payouts');
      // The payee is named (the vendor's name), its key on hover and in the link.
      await page
        .locator(`a[href="/console/payees/vendor/${vendor}"][title="vendor:${vendor}"]`)
        .first()
        .waitFor();
      const payoutId = (await page
        .locator(
          `tr:has(a[href="/console/payees/vendor/${vendor}"]) a[href^="/console/payouts/pout_"]`,
        )
        .first()
        .textContent())!;
      await page.getByRole('link', { name: payoutId }).click();
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await page
        .getByText('Not approved: A payout is approved by a second finance operator')
        .waitFor();
      await checkBothWidths(page, SHOTS, 'console-payout-refused');

      // A new wallet the provider holds under another name: approved (through the API), the waiting
      // payout is replaced, and the destination waits for a review that shows both names.
      transfers.registeredNames.set('0545550102', 'AMA SERWAA MENSAH');
      await page.goto(`${p.url}/console/payees/vendor/${vendor}`);
      await page.getByLabel('Wallet number (mobile money)').fill('054 555 0102');
      await page.getByLabel('Registered name').fill('Kofi Boateng');
      await page.getByRole('button', { name: 'Propose destination' }).click();
      await page.getByText('Change proposed: a second operator must approve it').waitFor();
      const secondChange = (await page
        .locator('input[name="change_id"]')
        .first()
        .getAttribute('value'))!;
      expect(
        (
          await p.admin(
            'POST',
            `/payees/vendor/${vendor}/destination/approve`,
            { change_id: secondChange },
            await checkerToken(p),
          )
        ).status,
      ).toBe(200);
      await page.goto(`${p.url}/console/payees/vendor/${vendor}`);
      await page.getByRole('heading', { name: 'Review the destination' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Change waiting for approval' }).count()).toBe(
        0,
      );
      await page.getByText(`cancelled, replaced by`).first().waitFor();
      await checkBothWidths(page, SHOTS, 'console-payee-review');
      // This operator proposed it: the acceptance is refused on the page.
      await page.getByRole('button', { name: 'Accept this destination' }).click();
      await page
        .getByText(
          'Not accepted: A destination that needs review is accepted by a finance operator who neither proposed nor approved it.',
        )
        .waitFor();
      await page.getByRole('link', { name: payoutId }).click();
      await page.locator('#state').getByText('cancelled').waitFor();
      await checkBothWidths(page, SHOTS, 'console-payout-cancelled');
      expect(csp).toEqual([]);
    }, 120_000);
  },
);
