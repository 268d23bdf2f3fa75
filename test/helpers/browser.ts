import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startPlatform, type TestPlatform } from './harness.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium is installed by CI (which requires it); a newcomer's machine may lack it. */
export const browserAvailable = existsSync(CHROMIUM);

if (!browserAvailable) {
  if (process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but ${CHROMIUM} is missing (apt-get install chromium)`);
  console.warn(`NOTICE: browser tests skipped: ${CHROMIUM} not found (apt-get install chromium to run them)`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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
