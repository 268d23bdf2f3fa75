import { beforeAll, describe, expect, it } from 'vitest';
import { courierNear, productionOrder } from '../../dispatch/helpers.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { checkPhonePage, phonePage } from '../../helpers/courier-browser.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';

const PHOTO = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
  Buffer.from('JFIF a doorstep'),
]);

describe.runIf(browserAvailable)(
  "the recipient's delivery confirmation page, headless Chromium at 390 px without JavaScript",
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    it('disputes from the keyboard with a note: no script, no CSP violation, no sideways scroll', async () => {
      const { p, browser } = env;
      const c = await courierNear(p, 1, Date.now() - 1000);
      const orderId = await productionOrder(s);
      const svc = p.app.platform.dispatch!.service;
      await svc.assign(orderId, c.id);
      await svc.pickedUp(c.id, orderId);
      await svc.arrived(c.id, orderId);
      await p.app.platform.proofs.recordMedia({ orderId, kind: 'photo', bytes: PHOTO });
      await p.app.platform.couriers.reportPosition(c.id, {
        lat: 5.556,
        lng: -0.182,
        at: new Date(),
      });
      await svc.delivered(c.id, orderId);
      const path = new URL(p.app.platform.proofConfirmations.linkFor(orderId)).pathname;

      const { context, page, violations } = await phonePage(browser, { javaScriptEnabled: false });
      await page.goto(`${p.url}${path}`);
      await page.getByRole('heading', { name: 'Did you receive your delivery?' }).waitFor();
      await checkPhonePage(page, 'delivery-confirmation');
      // The note, then its button, reached with the keyboard.
      await page.getByLabel('What went wrong (optional)').focus();
      await page.keyboard.type('The parcel was left at the wrong house');
      await page.keyboard.press('Tab');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe('No, I did not receive it');
      await page.keyboard.press('Enter');
      await page.getByText('we recorded that you did not receive this delivery').waitFor();
      await checkPhonePage(page, 'delivery-confirmation-disputed');
      expect(violations).toEqual([]);
      expect(await p.app.platform.proofConfirmations.get(orderId)).toMatchObject({
        state: 'disputed',
        dispute_note: 'The parcel was left at the wrong house',
      });
      await context.close();
    });
  },
);
