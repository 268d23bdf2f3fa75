import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailable, usePlatformAndBrowser, VIEWPORTS } from '../../helpers/browser.ts';
import { singlePass } from '../../helpers/harness.ts';

/** How tall the page is and whether it scrolls sideways (the page, not a code block inside it). */
const measure = (page: import('playwright-core').Page) =>
  page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth,
  }));

// The pages are made from the OpenAPI document, not the database: one pass is enough.
describe.runIf(browserAvailable && singlePass)('API reference pages in headless Chromium', () => {
  const ctx = usePlatformAndBrowser();

  it('lists and renders every operation with JavaScript off, loading only its own files under a strict CSP', {
    timeout: 180_000,
  }, async () => {
    const doc = await (await fetch(`${ctx.p.url}/openapi.json`)).json();
    const context = await ctx.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const violations: string[] = [];
    page.on(
      'console',
      (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
    );
    const res = await page.goto(`${ctx.p.url}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(
      /script-src 'self'; style-src 'self'/,
    );
    expect(await page.title()).toMatch(/reference/);

    // The links' texts as the browser shows them, read once (a locator per operation took seconds).
    const texts = (selector: string) =>
      page.locator(selector).evaluateAll((links) => links.map((a) => a.textContent ?? ''));
    const [overview, sidebar] = [
      await texts('main .op-list a'),
      await texts('nav li[data-search] a'),
    ];
    // One tab visits every operation's page in turn.
    const opPage = await context.newPage();
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // Listed on the overview and in the sidebar, without script.
        const exact = new RegExp(`\\s${op.operationId.replace(/\./g, '\\.')}$`);
        expect(
          overview.filter((t) => exact.test(t.trim())),
          op.operationId,
        ).toHaveLength(1);
        expect(
          sidebar.filter((t) => exact.test(t.trim())),
          op.operationId,
        ).toHaveLength(1);
        expect((await opPage.goto(`${ctx.p.url}/docs/${op.operationId}`))?.status()).toBe(200);
        const text = await opPage.locator('article.op').innerText();
        for (const part of [op.operationId, path, method.toUpperCase(), ...op['x-scopes']])
          expect(text, op.operationId).toContain(part);
        // curl, the SDK and ppctl: one sample each.
        expect(await opPage.locator('details.sample[data-lang]').count(), op.operationId).toBe(3);
      }
    }
    await opPage.close();
    await page.goto(`${ctx.p.url}/docs/delivery.orders.create`);
    const create = page.locator('article.op');
    expect(await create.locator('td code', { hasText: /^customer\.phone$/ }).count()).toBe(1);
    expect(
      await create
        .locator('table.errors td code', { hasText: /^DUPLICATE_ORDER_REFERENCE$/ })
        .count(),
    ).toBe(1);
    expect(await create.innerText()).toMatch(/X-Signature: /);
    // The search works without script: a GET form answered by the server.
    await page.goto(`${ctx.p.url}/docs`);
    await page.fill('#q', 'payouts get');
    await page.press('#q', 'Enter');
    await page.waitForURL(/\/docs\?q=payouts/);
    expect(await page.locator('main .op-list a').allInnerTexts()).toEqual([
      expect.stringContaining('safe-catalog.payouts.get'),
    ]);
    // Old one-page links still land on the operation in the overview's list.
    await page.goto(`${ctx.p.url}/docs#op-delivery-orders-track`);
    expect(await page.locator('#op-delivery-orders-track a').isVisible()).toBe(true);
    await page.goto(`${ctx.p.url}/docs/authentication`);
    expect(await page.locator('main').innerText()).toMatch(/HMAC-SHA256/);

    expect(requests.every((r) => r.startsWith('/docs') || r.startsWith('/assets/docs.'))).toBe(
      true,
    );
    expect(violations).toEqual([]);
    await context.close();
  });

  for (const viewport of VIEWPORTS) {
    it(`fits a ${viewport.width} px screen: short pages, no sideways scroll, search by typing, usable by keyboard`, async () => {
      const context = await ctx.browser.newContext({ viewport });
      const page = await context.newPage();
      const violations: string[] = [];
      page.on(
        'console',
        (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
      );
      const heights: Record<string, number> = {};
      for (const path of [
        '/docs',
        '/docs/delivery.orders.create',
        '/docs/safe-catalog.orders.create',
        '/docs/safe-catalog.payouts.get',
        '/docs/errors',
      ]) {
        await page.goto(`${ctx.p.url}${path}`);
        const m = await measure(page);
        heights[path] = m.height;
        expect(m.scrollWidth, path).toBeLessThanOrEqual(m.innerWidth);
        // One page per operation: the longest (orders.create, with its optional quote, address,
        // window and test clock fields: 10,200 px at 1280) is a few screens, not the whole API
        // (71,700 px before).
        expect(m.height, path).toBeLessThan(viewport.width < 500 ? 20_000 : 12_000);
      }
      console.log(`docs page heights at ${viewport.width} px: ${JSON.stringify(heights)}`);
      mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: `test-results/docs-${viewport.width}-operation.png` });

      // Search by typing: the sidebar keeps the matches (opened as a menu on a phone); Enter opens the first.
      await page.goto(`${ctx.p.url}/docs`);
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
      await page.keyboard.type('wallet balance');
      const shown = page.locator('nav li[data-search]:visible');
      await expect
        .poll(() => shown.allInnerTexts())
        .toEqual([expect.stringContaining('delivery.wallet.balance')]);
      await page.screenshot({ path: `test-results/docs-${viewport.width}-search.png` });
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/docs\/delivery\.wallet\.balance$/);
      expect(await page.locator('main h1').innerText()).toContain(
        '/api/v1/delivery/wallet.balance',
      );

      // Keyboard: skip link first, then the search box; arrow down from the box reaches the first match.
      await page.goto(`${ctx.p.url}/docs`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
      await page.keyboard.type('track');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(
        'delivery.orders.track',
      );
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/docs\/delivery\.orders\.track$/);
      expect(violations).toEqual([]);
      await context.close();
    });
  }

  it('opens the sidebar as a menu on a phone, without script', async () => {
    const context = await ctx.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${ctx.p.url}/docs/delivery.orders.get`);
    expect(await page.locator('nav#menu').isVisible()).toBe(false);
    await page.locator('a.menu').click();
    expect(await page.locator('nav#menu').isVisible()).toBe(true);
    await page.locator('nav#menu a', { hasText: 'delivery.orders.cancel' }).click();
    await page.waitForURL(/\/docs\/delivery\.orders\.cancel$/);
    await context.close();
  });
});
