import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { productionOrder } from '../../dispatch/helpers.ts';
import { browserAvailable, usePlatformAndBrowser } from '../../helpers/browser.ts';
import { newPhone } from '../../helpers/courier.ts';
import { createPartner, type PartnerSetup } from '../../helpers/harness.ts';
import { solidPng } from '../../helpers/png.ts';
import {
  checkPhonePage,
  closePhone,
  phonePage,
  signInOnPhone,
} from '../../helpers/courier-browser.ts';

/** Width and height from a baseline or progressive JPEG's frame header. */
function jpegSize(bytes: Uint8Array): [number, number] {
  for (let i = 2; i < bytes.length; ) {
    const marker = bytes[i + 1]!;
    if (marker === 0xc0 || marker === 0xc2)
      return [(bytes[i + 7]! << 8) | bytes[i + 8]!, (bytes[i + 5]! << 8) | bytes[i + 6]!];
    i += 2 + ((bytes[i + 2]! << 8) | bytes[i + 3]!);
  }
  throw new Error('no JPEG frame header');
}

describe.runIf(browserAvailable)(
  'proof of delivery by photo and signature in the courier app, headless Chromium at 390 px',
  () => {
    const env = usePlatformAndBrowser();
    let s: PartnerSetup;
    beforeAll(async () => {
      s = await createPartner(env.p, { environment: 'production' });
    });

    /**
     * A courier, `name`, who has picked up a production order (then reported at `at`, if given),
     * signed in on a 390 px page showing the job: a plain desktop context, unless `options` (for
     * phonePage) say otherwise.
     */
    async function carryingOnPhone(
      name: string,
      at?: { lat: number; lng: number },
      options: BrowserContextOptions = { isMobile: false, hasTouch: false },
    ) {
      const { p, browser } = env;
      const phone = newPhone();
      const courier = await p.app.platform.couriers.create({ name, phone, vehicle: 'motorbike' });
      const id = await productionOrder(s);
      const svc = p.app.platform.dispatch!.service;
      await svc.assign(id, courier.id);
      await svc.pickedUp(courier.id, id);
      if (at) await p.app.platform.couriers.reportPosition(courier.id, { ...at, at: new Date() });
      const { context, page, violations } = await phonePage(browser, options);
      await signInOnPhone(page, p, phone);
      await page.getByRole('heading', { name: 'Your job' }).waitFor();
      return { courier, id, context, page, violations };
    }

    /** Queues on the page, as the phone's queue holds them, a JPEG photo proof of `bytes` and then "delivered" for the order. */
    const queuePhotoThenDelivered = (page: Page, orderId: string, bytes: string) =>
      page.evaluate(
        ([order, raw]) => {
          const detail = [
            {
              kind: 'proof',
              payload: {
                order_id: order,
                kind: 'photo',
                type: 'image/jpeg',
                data: btoa(raw),
              },
            },
            { kind: 'delivered', payload: { order_id: order } },
          ];
          document
            .getElementById('app')!
            .dispatchEvent(new CustomEvent('courier-queue', { detail, cancelable: true }));
        },
        [orderId, bytes] as const,
      );

    it('delivers without the code: a downscaled photo and a drawn signature, queued offline and sent before "delivered"', async () => {
      const { p } = env;
      // At the drop-off (orderBody's point): a photo or signature is accepted only near it; on a
      // phone's touch screen.
      const { id, context, page, violations } = await carryingOnPhone(
        'Abena Boateng',
        { lat: 5.556, lng: -0.182 },
        {},
      );

      // Revealed from the keyboard.
      await page.getByText('The recipient cannot give the code').focus();
      await page.keyboard.press('Enter');
      const photo = page.getByLabel('Photo of the delivery (JPEG, PNG or WebP)');
      await expect(photo.getAttribute('capture')).resolves.toBe('environment');
      await photo.setInputFiles({
        name: 'doorstep.png',
        mimeType: 'image/png',
        buffer: solidPng(2400, 1200, [200, 120, 40]),
      });
      await expect
        .poll(() => page.locator('#proof-status').textContent())
        .toMatch(/^Photo ready \(\d+ KB\)\.$/);

      // A signature drawn with the mouse; cleared with the keyboard, then drawn again.
      const pad = page.locator('#signature');
      const sign = async () => {
        await pad.scrollIntoViewIfNeeded();
        const box = (await pad.boundingBox())!;
        await page.mouse.move(box.x + 20, box.y + box.height / 2);
        await page.mouse.down();
        for (let x = 40; x < box.width - 20; x += 20)
          await page.mouse.move(box.x + x, box.y + box.height / 2 + (x % 40 === 0 ? 15 : -15));
        await page.mouse.up();
      };
      const inked = () =>
        pad.evaluate((c: HTMLCanvasElement) =>
          c
            .getContext('2d')!
            .getImageData(0, 0, c.width, c.height)
            .data.some((v, i) => i % 4 === 3 && v > 0),
        );
      await sign();
      expect(await inked()).toBe(true);
      await page.getByRole('button', { name: 'Clear the signature' }).focus();
      await page.keyboard.press('Enter');
      expect(await inked()).toBe(false);
      await sign();
      await checkPhonePage(page, 'proof-photo-signature');

      // Offline at the door: the photo, the signature and the delivery wait on the phone, in that order.
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Finish with the photo' }).click();
      // The photo is downscaled on the phone before it is queued: slow on a loaded machine.
      await expect
        .poll(() => page.locator('#sync').textContent(), { timeout: 15_000 })
        .toMatch(/3 actions waiting to be sent/);
      await checkPhonePage(page, 'proof-offline');
      const status = async () =>
        (
          await p.app.platform.db.query<{ status: string }>(
            'select status from delivery_orders where id = $1',
            [id],
          )
        )[0]!.status;
      expect(await status()).toBe('in_transit');
      expect(
        await p.app.platform.db.query('select 1 from delivery_proofs where order_id = $1', [id]),
      ).toEqual([]);

      await context.setOffline(false);
      await expect.poll(status, { timeout: 15_000 }).toBe('delivered');
      await page.getByText('No job for you right now.').waitFor({ timeout: 15_000 });
      const proof = (
        await s.client.send<any>('POST', '/api/v1/delivery/orders.get', { body: { order_id: id } })
      ).body.data.proof_of_delivery;
      expect(proof.method).toBe('photo');
      expect(proof.confirmation).toBe('pending');
      expect(proof.media.map((m: any) => [m.kind, m.content_type])).toEqual([
        ['photo', 'image/jpeg'],
        ['signature', 'image/png'],
      ]);
      // Redrawn on the phone at 1600 px on its longest side.
      const jpeg = new Uint8Array(await (await fetch(proof.media[0].url)).arrayBuffer());
      expect(jpegSize(jpeg)).toEqual([1600, 800]);
      const rows = await p.app.platform.db.query<{ client_id: string | null }>(
        'select client_id from delivery_proofs where order_id = $1',
        [id],
      );
      expect(rows.every((r) => r.client_id !== null)).toBe(true);
      expect(violations).toEqual([]);
      await closePhone(context);
    });

    it('shows why a queued photo was refused and keeps the delivery behind it from being sent', async () => {
      const { p } = env;
      const { courier, id, context, page } = await carryingOnPhone('Kwesi Appiah');

      // A "photo" whose bytes are a GIF, as a tampered or corrupted queue would hold.
      await queuePhotoThenDelivered(page, id, 'GIF89a\x01\x00\x01\x00');
      // The refusal is said beside the buttons with what to do; the queue is empty again.
      await expect
        .poll(() => page.locator('#outcome').textContent())
        .toBe(
          'Not done: A proof image must be a JPEG, PNG or WebP picture. Take another picture, or enter the code.',
        );
      await expect.poll(() => page.locator('#sync').textContent()).toBe('All sent.');
      expect(
        await page.evaluate((key) => localStorage.getItem(key), `courier-queue-${courier.id}`),
      ).toBe('[]');
      expect(
        (await p.app.platform.courierActions.history(courier.id)).filter(
          (a) => a.kind === 'delivered',
        ),
      ).toEqual([]);
      expect(
        await p.app.platform.db.query('select 1 from delivery_proofs where order_id = $1', [id]),
      ).toEqual([]);
      await closePhone(context);
    });

    it('says why a photo far from the drop-off was refused, and what to do, with nothing delivered', async () => {
      const { p } = env;
      // About 2 km north of the drop-off.
      const { id, context, page } = await carryingOnPhone('Yaw Darko', { lat: 5.574, lng: -0.182 });
      await queuePhotoThenDelivered(page, id, '\xff\xd8\xff\xe0\x00\x10JFIF a doorstep');
      // The reason itself says what to do: nothing generic is added after it.
      await expect
        .poll(() => page.locator('#outcome').textContent())
        .toMatch(
          /^Not done: You are about 2\d{3} m from the drop-off; a photo or signature is accepted within 150 m\. Go to the drop-off and try again, or ask the recipient for their code\.$/,
        );
      await expect.poll(() => page.locator('#sync').textContent()).toBe('All sent.');
      const [order] = await p.app.platform.db.query<{ status: string }>(
        'select status from delivery_orders where id = $1',
        [id],
      );
      expect(order!.status).toBe('in_transit');
      await closePhone(context);
    });
  },
);
