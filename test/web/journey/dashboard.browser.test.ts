import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  browserAvailable,
  usePlatformAndBrowser,
  VIEWPORTS,
  watchPage,
  checkPage,
  signUpInBrowser,
} from '../../helpers/browser.ts';
import { ROOT } from '../../helpers/process.ts';
import { mailSettled, newEmail, PASSWORD } from '../../helpers/web.ts';

/** Screenshots to look at (gitignored): a page can pass every assertion and still look wrong. */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'dashboard');

describe.runIf(browserAvailable)('the partner dashboard in headless Chromium', () => {
  const ctx = usePlatformAndBrowser();

  it('sign up → verify from the outbox → app → staging key copied → SDK order → the order and its timeline', async () => {
    const { p, browser } = ctx;
    const phone = VIEWPORTS[0];
    const context: BrowserContext = await browser.newContext({ viewport: phone });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: p.url });
    const page = await context.newPage();
    const seen = watchPage(page, p.url);
    const email = newEmail('journey');

    await page.goto(`${p.url}/`);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await checkPage(page, SHOTS, 'sign-up');
    await page.getByLabel('Business name').fill('Esi Crafts');
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

    await mailSettled(p);
    await page.goto(`${p.url}/dev/mail`);
    await page
      .getByRole('link', { name: /Verify your email/ })
      .first()
      .click();
    await page.getByRole('link', { name: /verify-email/ }).click();
    await page.getByRole('heading', { name: 'Email verified' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await checkPage(page, SHOTS, 'sign-in');
    // Keyboard first: the first Tab reaches the skip link.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Esi Crafts' }).waitFor();
    await checkPage(page, SHOTS, 'overview');

    await page.getByRole('link', { name: 'Your apps' }).click();
    await page.getByLabel('App name').fill('Esi web shop');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText('Webhook secret (verifies').waitFor();
    await page.getByRole('button', { name: 'Create a staging key' }).click();
    await checkPage(page, SHOTS, 'key-shown');
    expect(await page.getByText('Shown once.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Copy API key' }).click();
    const apiKey = await page.evaluate(() => navigator.clipboard.readText());
    await page.getByRole('button', { name: 'Copy signing secret' }).click();
    const signingSecret = await page.evaluate(() => navigator.clipboard.readText());
    expect(apiKey).toMatch(/^pk_staging_/);
    expect(signingSecret).toMatch(/^sk_staging_/);
    expect(await page.locator('button[data-copy="api-key"]').textContent()).toBe('Copied');

    const client = new PartnerClient({ apiKey, signingSecret, baseUrl: p.url });
    const created = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: orderBody({ order_reference: 'ESI-0001' }),
    });
    expect(created.status).toBe(201);
    const orderId = created.body.data.order_details.order_id;
    await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'accepted' });

    await page.getByRole('link', { name: 'Orders' }).click();
    await checkPage(page, SHOTS, 'orders');
    await page.getByRole('link', { name: 'ESI-0001' }).click();
    expect(page.url()).toBe(`${p.url}/dashboard/orders/${orderId}`);
    const timeline = await page.locator('ol.timeline li').allInnerTexts();
    expect(timeline[0]).toMatch(/^Order placed · /);
    expect(timeline[1]).toMatch(/^Accepted by courier · /);
    await checkPage(page, SHOTS, 'order');

    // The same pages at laptop width, in the same session.
    const desktop = VIEWPORTS[1];
    await page.setViewportSize(desktop);
    for (const [name, path] of [
      ['overview', '/dashboard'],
      ['apps', '/dashboard/apps'],
      ['orders', '/dashboard/orders'],
      ['order', `/dashboard/orders/${orderId}`],
      ['team', '/dashboard/team'],
      ['wallet', '/dashboard/wallet'],
    ] as const) {
      expect((await page.goto(`${p.url}${path}`))?.status()).toBe(200);
      await checkPage(page, SHOTS, name);
    }
    await page.setViewportSize(phone);
    await page.goto(`${p.url}/dashboard/team`);
    await checkPage(page, SHOTS, 'team');

    expect(seen.violations).toEqual([]);
    expect(seen.foreign).toEqual([]);
    await context.close();
  }, 120_000);

  it('works without JavaScript: sign-in and a form post, with no copy button shown', async () => {
    const { p, browser } = ctx;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: VIEWPORTS[0] });
    const page = await context.newPage();
    const email = newEmail('nojs');
    await signUpInBrowser(page, p, 'Yaw Prints', email);
    await page.goto(`${p.url}/dashboard/apps`);
    await page.getByLabel('App name').fill('No script app');
    await page.getByRole('button', { name: 'Create app' }).click();
    expect(await page.locator('#webhook-secret').textContent()).toMatch(/^whsec_/);
    expect(await page.getByRole('button', { name: 'Copy webhook secret' }).isVisible()).toBe(false);
    await context.close();
  }, 60_000);
});
