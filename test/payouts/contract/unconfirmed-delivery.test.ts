import { describe, expect, it } from 'vitest';
import { getSale, orderBody, placed } from '../../catalog/helpers.ts';
import { courierNear } from '../../dispatch/helpers.ts';
import type { PartnerSetup, TestPlatform } from '../../helpers/harness.ts';
import { WebClient } from '../../helpers/web.ts';
import { balanceOf, expectBalanced, HOUR, runPayouts } from '../helpers.ts';
import {
  cashHeld,
  handover,
  payoutsOf,
  scheduledVendor,
  type Shop,
  useSameDayPlatform,
} from '../same-day-helpers.ts';

const PHOTO = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
  Buffer.from('JFIF a doorstep'),
]);

let p: TestPlatform;
let sp: PartnerSetup;
const { now, advance } = useSameDayPlatform((started) => ({ p, sp } = started));

/**
 * A cod sale of the vendor's that the courier delivered with a photo at the drop-off (no code), its
 * cash collected: answers the delivery order and the recipient's link.
 */
async function deliveredWithPhoto(s: Shop, courierId: string) {
  const sale = await placed(sp, orderBody(s));
  const orderId = (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery
    .order_id as string;
  const svc = p.app.platform.dispatch!.service;
  await svc.assign(orderId, courierId);
  await svc.arrivedAtPickup(courierId, orderId);
  await svc.pickedUp(courierId, orderId);
  await svc.arrived(courierId, orderId);
  await p.app.platform.proofs.recordMedia({ orderId, kind: 'photo', bytes: PHOTO, courierId });
  // The drop-off point, from the courier's job sheet (the delivery module's face).
  const sheet = (await p.app.platform.delivery!.orders.jobSheet(orderId))!;
  const drop = { lat: sheet.delivery_lat!, lng: sheet.delivery_lng! };
  await p.app.platform.couriers.reportPosition(courierId, { ...drop, at: new Date(now()) });
  await svc.delivered(courierId, orderId);
  return { orderId, link: new URL(p.app.platform.proofConfirmations.linkFor(orderId)).pathname };
}

describe("a delivery proved by a photo holds its sale's money until it is confirmed", () => {
  it('pays neither after the cash handover nor in the daily run while unconfirmed; pays once the recipient confirms', async () => {
    const vendor = await scheduledVendor(p, 'same_day');
    const c = await courierNear(p, 1, now());
    const { orderId, link } = await deliveredWithPhoto(vendor, c.id);
    const owed = await balanceOf(p, `vendor_payable:${vendor.vendorId}`);
    expect(owed).toBeGreaterThan(0);
    expect(await p.app.platform.proofConfirmations.get(orderId)).toMatchObject({
      state: 'pending',
    });

    // The courier hands the cash in past the same-day hold: the same-day run leaves this sale.
    advance(4 * HOUR);
    await handover(p, c.id, await cashHeld(p, c.id));
    expect(await cashHeld(p, c.id)).toBe(0);
    expect(await payoutsOf(p, vendor.vendorId)).toEqual([]);
    // The daily run past the daily hold leaves it too.
    advance(25 * HOUR);
    expect((await runPayouts(p)).status).toBe(202);
    expect(await payoutsOf(p, vendor.vendorId)).toEqual([]);
    expect(await balanceOf(p, `vendor_payable:${vendor.vendorId}`)).toBe(owed);

    // The recipient confirms through the texted link: the next run pays the vendor, once.
    const web = new WebClient(p);
    expect((await web.post(link, { answer: 'confirm' })).status).toBe(200);
    expect((await runPayouts(p)).status).toBe(202);
    expect(await payoutsOf(p, vendor.vendorId)).toEqual([
      expect.objectContaining({ amount_pesewas: owed }),
    ]);
    expect((await runPayouts(p)).status).toBe(202);
    expect(await payoutsOf(p, vendor.vendorId)).toHaveLength(1);
    await expectBalanced(p);
  });

  it('keeps a disputed sale out of runs until an operator accepts the delivery', async () => {
    const vendor = await scheduledVendor(p, 'daily');
    const c = await courierNear(p, 1, now());
    const { orderId, link } = await deliveredWithPhoto(vendor, c.id);
    const owed = await balanceOf(p, `vendor_payable:${vendor.vendorId}`);
    const web = new WebClient(p);
    expect((await web.post(link, { answer: 'dispute', note: 'not here' })).status).toBe(200);
    advance(25 * HOUR);
    await runPayouts(p);
    expect(await payoutsOf(p, vendor.vendorId)).toEqual([]);
    await p.app.platform.proofConfirmations.accept(orderId, 'opr_test');
    await runPayouts(p);
    expect(await payoutsOf(p, vendor.vendorId)).toEqual([
      expect.objectContaining({ amount_pesewas: owed }),
    ]);
  });
});
