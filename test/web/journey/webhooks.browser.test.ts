import { join } from 'node:path';
import { PartnerClient } from '@partner-platform/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  browserAvailable,
  launchBrowser,
  VIEWPORTS,
  watchPage,
  checkPage,
  signUpInBrowser,
} from '../../helpers/browser.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';
import { newEmail } from '../../helpers/web.ts';
import { Receiver, until } from '../../webhooks/receiver.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'webhooks');

describe.runIf(browserAvailable)(
  'journey 3: a failing webhook endpoint, dead-lettered, fixed and replayed from the dashboard',
  () => {
    let p: TestPlatform;
    let browser: Browser;
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await new Receiver().start();
      receiver.fallback = 500;
      // The dispatcher on, polling fast, two quick retries, and local receivers allowed (staging only).
      [p, browser] = await Promise.all([
        startPlatform({
          env: {
            WEBHOOK_DISPATCHER: 'on',
            WEBHOOK_POLL_MS: '20',
            WEBHOOK_LOCAL_DESTINATIONS: 'on',
            WEBHOOK_RETRY_SCHEDULE: '0.05,0.05',
            WEBHOOK_TIMEOUT_MS: '2000',
          },
        }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
      await receiver?.close();
    });

    const statusOf = async (orderId: string) =>
      (
        await p.app.platform.db.query<{ id: string; delivery_status: string }>(
          "select id, delivery_status from outbox_events where subject_id = $1 and type = 'delivery.order.created'",
          [orderId],
        )
      )[0];

    it('sign up → app with a failing URL → order → the event ends dead → receiver fixed → replayed → delivered', async () => {
      const phone = VIEWPORTS[0];
      const context = await browser.newContext({ viewport: phone });
      const page = await context.newPage();
      const seen = watchPage(page, p.url);
      const email = newEmail('hooks');

      await signUpInBrowser(page, p, 'Ama Deliveries', email);
      await page.getByRole('heading', { name: 'Ama Deliveries' }).waitFor();

      await page.goto(`${p.url}/dashboard/apps`);
      await page.getByLabel('App name').fill('Ama shop');
      await page.getByRole('button', { name: 'Create app' }).click();
      await page.getByText('Webhook secret (verifies').waitFor();
      await page.getByLabel('Webhook URL').fill(`${receiver.url}/hooks`);
      await page.getByRole('button', { name: 'Save the URL' }).click();
      await page.getByText('Webhook URL saved.').waitFor();
      await page.getByRole('button', { name: 'Create a staging key' }).click();
      const apiKey = (await page.locator('#api-key').textContent())!;
      const signingSecret = (await page.locator('#signing-secret').textContent())!;

      const client = new PartnerClient({ apiKey, signingSecret, baseUrl: p.url });
      const created = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ order_reference: 'AMA-0001' }),
      });
      expect(created.status).toBe(201);
      const orderId: string = created.body.data.order_details.order_id;
      // Three attempts (the first and two retries), each answered 500: a dead letter.
      await until(async () => (await statusOf(orderId))?.delivery_status === 'dead', 20_000);
      const eventId = (await statusOf(orderId))!.id;
      expect(receiver.on('/hooks').length).toBe(3);

      await page.getByRole('link', { name: 'Webhook deliveries' }).click();
      await page.getByLabel('Status').selectOption('dead');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('link', { name: 'delivery.order.created' }).click();
      expect(page.url()).toContain(`/webhooks/${eventId}`);
      expect(await page.locator('#delivery-status').textContent()).toBe('dead');
      const attempts = await page.locator('table tbody tr').allInnerTexts();
      expect(attempts).toHaveLength(3);
      expect(attempts.every((row) => row.includes('500'))).toBe(true);
      expect(await page.locator('pre').textContent()).toContain('AMA-0001');
      await checkPage(page, SHOTS, 'event-dead');
      const eventUrl = page.url();
      await page.getByRole('link', { name: /Webhook deliveries of/ }).click();
      await checkPage(page, SHOTS, 'deliveries');
      await page.goto(eventUrl);

      // The partner fixes the receiver, then replays from the dashboard.
      receiver.fallback = 204;
      await page.getByRole('button', { name: 'Replay this delivery' }).click();
      await page.getByText(`Delivery ${eventId} queued again`).waitFor();
      await until(async () => (await statusOf(orderId))?.delivery_status === 'delivered', 20_000);
      expect(receiver.on('/hooks').length).toBe(4);
      expect(receiver.on('/hooks')[3]!.body).toContain('AMA-0001');

      await page.getByRole('link', { name: 'delivery.order.created' }).click();
      expect(await page.locator('#delivery-status').textContent()).toBe('delivered');
      const after = await page.locator('table tbody tr').allInnerTexts();
      expect(after).toHaveLength(4);
      expect(after[3]).toContain('204');
      await checkPage(page, SHOTS, 'event-delivered');

      const desktop = VIEWPORTS[1];
      await page.setViewportSize(desktop);
      await checkPage(page, SHOTS, 'event-delivered');
      await page.getByRole('link', { name: /Webhook deliveries of/ }).click();
      await checkPage(page, SHOTS, 'deliveries');

      expect(seen.violations).toEqual([]);
      expect(seen.foreign).toEqual([]);
      await context.close();
    }, 120_000);
  },
);
