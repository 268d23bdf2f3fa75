import { beforeAll, describe, expect, it } from 'vitest';
import { allOffDuty, PICKUP, productionOrder, toDropoff, ZONE } from '../../dispatch/helpers.ts';
import { browserAvailable, contrastRatios, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { newPhone } from '../../helpers/courier.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import { checkPhonePage, phonePage, signInOnPhone } from '../../helpers/courier-browser.ts';

const cedis = (pesewas: number) => `GH₵ ${(pesewas / 100).toFixed(2)}`;

describe.runIf(browserAvailable)('the courier earnings screen, headless Chromium at 390 px', () => {
  const env = usePlatformAndBrowser();
  let s: PartnerSetup;
  beforeAll(async () => {
    s = await createPartner(env.p, { environment: 'production' });
  });

  it("shows today's and this week's pay and each job, reached and left with the keyboard", async () => {
    const { p, browser } = env;
    await allOffDuty(p);
    const set = await p.admin('POST', '/courier-pay/rules', {
      zone: 'default',
      vehicle: 'motorbike',
      base_pesewas: 700,
      per_km_pesewas: 150,
      per_failed_attempt_pesewas: 300,
    });
    expect(set.status).toBe(201);
    const phone = newPhone();
    const { couriers } = p.app.platform;
    const courier = await couriers.create({
      name: 'Ama Mensah',
      phone,
      vehicle: 'motorbike',
      zones: [ZONE],
    });
    await couriers.setDuty(courier.id, true);
    await couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
    const failedFirst = await productionOrder(s);
    await toDropoff(p, failedFirst, courier.id);
    await p.app.platform.dispatch!.service.couldNotDeliver(
      courier.id,
      failedFirst,
      'recipient_absent',
    );
    const id = await productionOrder(s);
    await toDropoff(p, id, courier.id);
    await p.app.platform.dispatch!.service.delivered(courier.id, id);
    const km = await p.app.platform.delivery!.orders.roadKm(id);
    const pay = 700 + Math.round(150 * km);

    const { context, page, violations } = await phonePage(browser);
    await signInOnPhone(page, p, phone);
    const link = page.getByRole('link', { name: 'Earnings' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Earnings' }).waitFor();
    await expect(page.locator('[data-total="today"]').textContent()).resolves.toBe(
      cedis(pay + 300),
    );
    await expect(page.locator('[data-total="week"]').textContent()).resolves.toBe(cedis(pay + 300));
    const jobs = await page.locator('.earnings li').allInnerTexts();
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toContain('Delivered');
    expect(jobs[0]).toContain(cedis(pay));
    expect(jobs[0]).toContain(id);
    expect(jobs[1]).toContain('Could not deliver (trip 1)');
    expect(jobs[1]).toContain(cedis(300));
    await checkPhonePage(page, 'earnings');
    const again = await page.reload();
    expect(again!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect((await contrastRatios(page, 'main *')).filter((t) => t.ratio < 4.5)).toEqual([]);

    await page.getByRole('link', { name: '← Jobs' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${p.url}/courier/`);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('sends a signed-out visitor to sign in', async () => {
    const res = await fetch(`${env.p.url}/courier/earnings`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/courier/sign-in');
  });
});
