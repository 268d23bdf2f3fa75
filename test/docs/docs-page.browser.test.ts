import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailable, usePlatformAndBrowser } from '../helpers/browser.ts';

describe.runIf(browserAvailable)('API reference page in headless Chromium', () => {
  const ctx = usePlatformAndBrowser();

  it('renders every operation with JavaScript off and loads nothing else', async () => {
    const doc = await (await fetch(`${ctx.p.url}/openapi.json`)).json();
    const context = await ctx.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const violations: string[] = [];
    page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));
    const url = `${ctx.p.url}/docs`;
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toMatch(/reference/);

    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const article = page.locator(`article#op-${op.operationId.replace(/[^A-Za-z0-9_-]/g, '-')}`);
        expect(await article.count(), op.operationId).toBe(1);
        const text = await article.innerText();
        expect(text).toContain(op.operationId);
        expect(text).toContain(path);
        expect(text).toContain(method.toUpperCase());
        for (const scope of op['x-scopes']) expect(text).toContain(scope);
        // Shown, not hidden: the operation's heading is laid out on the page.
        expect(await article.locator('h3').isVisible()).toBe(true);
      }
    }
    // The request fields table comes from the schema; the error table from the responses.
    const create = page.locator('article#op-delivery-orders-create');
    expect(await create.locator('table caption', { hasText: 'Request body' }).count()).toBe(1);
    expect(await create.locator('td code', { hasText: /^customer\.phone$/ }).count()).toBe(1);
    expect(await create.locator('table.errors td code', { hasText: /^DUPLICATE_ORDER_REFERENCE$/ }).count()).toBe(1);
    expect(await create.innerText()).toMatch(/X-Signature: /);
    // The navigation works without JavaScript: plain fragment links.
    await page.locator('nav a', { hasText: 'delivery.orders.track' }).click();
    expect(page.url()).toMatch(/#op-delivery-orders-track$/);
    expect(await page.locator('#authentication').innerText()).toMatch(/HMAC-SHA256/);

    expect(requests).toEqual([url]);
    expect(violations).toEqual([]);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/api-docs.png' });
    await context.close();
  });
});
