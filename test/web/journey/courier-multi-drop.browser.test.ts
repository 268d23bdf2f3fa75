import { beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import { textsTo } from '../../helpers/outbox-read.ts';
import {
  checkPhonePage,
  closePhone,
  courierOnPhoneAtPickup,
} from '../../helpers/courier-browser.ts';

/** Two recipients east of the Makola pickup: Osu (about 3 km, the first drop) and East Legon (about 11 km). */
const DROPS = [
  {
    name: 'Esi Owusu',
    phone: '0244000101',
    to: { lat: 5.635, lng: -0.161 },
    address: '4 Boundary Road',
    item: 'A kente cloth',
  },
  {
    name: 'Kwame Asante',
    phone: '0244000102',
    to: { lat: 5.556, lng: -0.182 },
    address: '12 Oxford Street',
    item: 'Two pairs of sandals',
  },
];

describe.runIf(browserAvailable)(
  'a multi-drop batch in the courier app, headless Chromium at 390 px',
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    it('shows the offer with its stops in order, then takes the courier through one pickup and each drop with its code', async () => {
      const { p, browser } = env;
      const { context, page, violations } = await courierOnPhoneAtPickup(p, browser, 'Abena Ofori');

      const ids: string[] = [];
      for (const d of DROPS) {
        const body = orderBody();
        body.customer = { name: d.name, phone: d.phone };
        body.delivery.address = d.address;
        body.delivery.coordinates = d.to;
        body.item = d.item;
        const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
        expect(res.status).toBe(201);
        ids.push(res.body.data.order_details.order_id);
      }
      // The offer arrives without a reload: each drop with its own drop-off and item, and no one
      // drop's drop-off or item shown as if it were the whole job; the page reloaded says the same.
      let navigations = 0;
      page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);
      await p.app.platform.dispatch!.offers.tick();
      const stops = page.getByRole('list', { name: 'Stops in order' }).getByRole('listitem');
      const offered = [
        'Pickup: Makola Market',
        'Drop 1: 12 Oxford Street, Accra · Kwame Asante · Two pairs of sandals',
        'Drop 2: 4 Boundary Road, Accra · Esi Owusu · A kente cloth',
      ];
      for (const reloaded of [false, true]) {
        if (reloaded) await page.reload();
        await page
          .getByRole('heading', { name: 'New batch offered: 2 drops' })
          .waitFor({ timeout: 5000 });
        await expect.poll(() => stops.allTextContents()).toEqual(offered);
        const terms = await page.locator('.job dt').allTextContents();
        expect(terms).not.toContain('Item');
        expect(terms).not.toContain('Drop-off');
        expect(terms).toContain('Fees (2 drops)');
        if (reloaded) continue;
        expect(navigations).toBe(0);
        await checkPhonePage(page, 'batch-offer-live');
      }
      await checkPhonePage(page, 'batch-offer');

      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('heading', { name: 'Your batch: 2 drops left' }).waitFor();
      await checkPhonePage(page, 'batch-accepted');
      const codeFor = async (to: string) => {
        const sms = (await textsTo(p, to)).find((t) => t.body.includes('Delivery code'));
        return /Delivery code: (\d{4})\./.exec(sms!.body)![1]!;
      };

      // One tap collects both parcels: a "picked up" for each order.
      await page.getByRole('button', { name: 'Picked up (2 parcels)' }).click();
      await page.getByLabel("Recipient's 4-digit delivery code").waitFor();
      await expect.poll(() => page.locator('.stop.current').textContent()).toContain('Drop 1');
      await checkPhonePage(page, 'batch-drop-1');

      await page
        .getByLabel("Recipient's 4-digit delivery code")
        .fill(await codeFor('+233244000102'));
      await page.getByRole('button', { name: 'Delivered' }).click();
      await page
        .getByRole('heading', { name: 'Your batch: 1 drop left' })
        .waitFor({ timeout: 15_000 });
      await expect
        .poll(() => stops.allTextContents())
        .toEqual([
          'Pickup: Makola Market (collected)',
          'Drop 1: 4 Boundary Road, Accra · Esi Owusu · A kente cloth',
        ]);
      await checkPhonePage(page, 'batch-drop-2');

      await page
        .getByLabel("Recipient's 4-digit delivery code")
        .fill(await codeFor('+233244000101'));
      await page.getByRole('button', { name: 'Delivered' }).click();
      await page.getByText('No job for you right now.').waitFor({ timeout: 15_000 });

      for (const id of ids) {
        const moves = await p.app.platform.db.query<{ status: string }>(
          `select payload->'data'->>'status' as status from outbox_events where subject_id = $1 and payload->'data'->>'status' is not null order by sequence`,
          [id],
        );
        expect(moves.map((m) => m.status)).toEqual([
          'placed',
          'accepted',
          'pickedUp',
          'in_transit',
          'delivered',
        ]);
      }
      expect(violations).toEqual([]);
      await closePhone(context);
    });
  },
);
