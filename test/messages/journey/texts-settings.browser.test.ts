import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  checkBothWidths,
  signUpInBrowser,
  usePlatformAndBrowser,
  VIEWPORTS,
  watchPage,
} from '../../helpers/browser.ts';
import { ROOT } from '../../helpers/process.ts';
import { newEmail } from '../../helpers/web.ts';

/** Screenshots to look at (gitignored). */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'messages');

describe.runIf(browserAvailable)(
  'the dashboard’s texts to recipients, by keyboard at 390 px',
  () => {
    const ctx = usePlatformAndBrowser();
    let close: (() => Promise<void>) | undefined;
    afterAll(() => close?.());

    it('an owner creates an app, opens its texts, turns on the delivered text in Twi under a sender name', async () => {
      const context = await ctx.browser.newContext({ viewport: VIEWPORTS[0] });
      close = () => context.close();
      const page = await context.newPage();
      const watched = watchPage(page, ctx.p.url);
      await signUpInBrowser(page, ctx.p, 'Kente House', newEmail('texts'));
      await page.goto(`${ctx.p.url}/dashboard/apps`);
      await page.getByLabel('App name').fill('Shop app');
      await page.getByRole('button', { name: /Create/ }).click();
      await page.getByRole('link', { name: 'Texts to recipients' }).click();
      await page.getByRole('heading', { name: 'Texts to recipients' }).waitFor();
      await checkBothWidths(page, SHOTS, 'texts-settings');

      const delivered = page.getByLabel('The parcel was delivered');
      await delivered.focus();
      await page.keyboard.press('Space');
      await page.getByLabel('Sender name').fill('KenteHouse');
      await page.getByLabel('Language').selectOption('tw');
      await page.getByRole('button', { name: 'Save' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Saved.').waitFor();
      expect(await page.getByLabel('The parcel was delivered').isChecked()).toBe(true);
      expect(await page.getByLabel('Sender name').inputValue()).toBe('KenteHouse');
      expect(await page.getByLabel('Language').inputValue()).toBe('tw');
      await checkBothWidths(page, SHOTS, 'texts-saved');
      expect(watched).toEqual({ violations: [], foreign: [] });
    });
  },
);
