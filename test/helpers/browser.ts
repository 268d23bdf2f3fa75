import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
