import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startPlatform, type TestPlatform } from './harness.ts';
import { mailSettled, PASSWORD } from './web.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium is installed by CI (which requires it); a newcomer's machine may lack it. */
export const browserAvailable = existsSync(CHROMIUM);

if (!browserAvailable) {
  if (process.env.REQUIRE_BROWSER)
    throw new Error(`REQUIRE_BROWSER is set but ${CHROMIUM} is missing (apt-get install chromium)`);
  console.warn(
    `NOTICE: browser tests skipped: ${CHROMIUM} not found (apt-get install chromium to run them)`,
  );
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Starts a platform and a browser for the enclosing describe block, and closes both after it. */
export function usePlatformAndBrowser(): { readonly p: TestPlatform; readonly browser: Browser } {
  let p: TestPlatform | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [p, browser] = await Promise.all([startPlatform(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });
  return {
    get p() {
      return p!;
    },
    get browser() {
      return browser!;
    },
  };
}

/** The two widths every public page is checked at: a phone and a laptop. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** How far the page scrolls sideways (0 when wide content scrolls inside its own box, as it should). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * WCAG contrast ratio of each visible text element matching `selector` against the first opaque
 * background behind it (white when none), lowest first. Runs in the page as a string so that no
 * transpiler helper leaks into it.
 */
export function contrastRatios(
  page: Page,
  selector: string,
): Promise<Array<{ text: string; ratio: number }>> {
  return page.evaluate(`(() => {
    const rgba = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const out = [];
    for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.checkVisibility()) continue;
      let bg = [255, 255, 255];
      for (let at = el; at; at = at.parentElement) {
        const c = rgba(getComputedStyle(at).backgroundColor);
        if (c.length === 3 || c[3] === 1) { bg = c.slice(0, 3); break; }
      }
      const [r, g, b, a = 1] = rgba(getComputedStyle(el).color);
      const fg = [r, g, b].map((v, i) => v * a + bg[i] * (1 - a));
      const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      out.push({ text: el.textContent.trim().slice(0, 60), ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100 });
    }
    return out.sort((x, y) => x.ratio - y.ratio);
  })()`);
}

/**
 * What a page must never do, collected as it happens: break the Content Security Policy, throw,
 * or (when `origin` is given) load anything from elsewhere.
 */
export function watchPage(
  page: Page,
  origin?: string,
): { violations: string[]; foreign: string[] } {
  const violations: string[] = [];
  const foreign: string[] = [];
  page.on(
    'console',
    (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
  );
  page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
  if (origin) page.on('request', (r) => !r.url().startsWith(origin) && foreign.push(r.url()));
  return { violations, foreign };
}

/**
 * Saves a screenshot into `shots` (gitignored: a page can pass every assertion and still look
 * wrong) and checks what every page holds at its current width: no sideways scrolling and no
 * text below 4.5:1.
 */
export async function checkPage(page: Page, shots: string, name: string): Promise<void> {
  const width = page.viewportSize()!.width;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
  expect(
    await horizontalOverflow(page),
    `${name} at ${width} px scrolls sideways`,
  ).toBeLessThanOrEqual(0);
  expect(
    (await contrastRatios(page, 'body *')).filter((t) => t.ratio < 4.5),
    `${name}: text below 4.5:1`,
  ).toEqual([]);
}

/** checkPage at both widths (phone first, then laptop), back at the width the page had. */
export async function checkBothWidths(page: Page, shots: string, name: string): Promise<void> {
  const before = page.viewportSize()!;
  for (const v of VIEWPORTS) {
    await page.setViewportSize(v);
    await checkPage(page, shots, name);
  }
  await page.setViewportSize(before);
}

/**
 * Signs a new owner up in the browser, follows the verification link from the development
 * mailbox and signs in with the email and password: every dashboard journey's first steps.
 */
export async function signUpInBrowser(
  page: Page,
  p: TestPlatform,
  business: string,
  email: string,
): Promise<void> {
  await page.goto(`${p.url}/sign-up`);
  await page.getByLabel('Business name').fill(business);
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
  await page.goto(`${p.url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

/**
 * A page in a new browser context carrying the console session of `cookie` (an operator signed
 * in over HTTP), with what it must never do watched from the start.
 */
export async function consolePage(
  browser: Browser,
  p: TestPlatform,
  cookie: string,
  viewport: { width: number; height: number } = VIEWPORTS[0],
): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'pp_console', value: cookie, url: p.url }]);
  const page = await context.newPage();
  return { page, violations: watchPage(page).violations };
}
