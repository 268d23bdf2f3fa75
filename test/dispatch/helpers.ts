import { expect } from 'vitest';
import { CouriersService, type Courier } from '../../src/modules/couriers/index.ts';
import { orderBody } from '../delivery/fixtures.ts';
import type { PartnerSetup, TestPlatform } from '../helpers/harness.ts';

/** Takes every courier off duty, so a test starts with only its own. */
export async function allOffDuty(p: TestPlatform): Promise<void> {
  const couriers = new CouriersService(p.app.platform.db, Date.now);
  for (const c of await couriers.list({ onDuty: true, limit: 200 }))
    await couriers.setDuty(c.id, false);
}

/**
 * `count` off-duty couriers in one statement, their ids sorting before any the service makes (a
 * ULID's time starts 01): a courier made after them is past the first `count` by id.
 */
export async function earlierCouriers(p: TestPlatform, count: number): Promise<void> {
  await p.app.platform.db.query(
    `insert into couriers (id, name, phone, vehicle, created_at, updated_at)
     select 'cou_' || lpad(i::text, 26, '0'), 'Earlier courier ' || i, '+23329' || lpad(i::text, 7, '0'),
            'motorbike', now(), now()
       from generate_series(1, $1::int) i
     on conflict do nothing`,
    [count],
  );
}

/** The fixture order's pickup (Makola, Greater Accra). */
export const PICKUP = { lat: 5.549, lng: -0.209 };
export const ZONE = 'greater-accra';

let phones = 0;

/** An on-duty courier in Greater Accra `km` kilometres north of the pickup, seen at `at`. */
export async function courierNear(
  p: TestPlatform,
  km: number,
  at: number,
  opts: { zones?: string[]; clock?: () => number } = {},
): Promise<Courier> {
  const couriers = new CouriersService(p.app.platform.db, opts.clock ?? (() => at));
  const phone = `024${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;
  const c = await couriers.create({
    name: `Courier ${String.fromCharCode(65 + (phones % 26))}`,
    phone,
    vehicle: 'motorbike',
    zones: opts.zones ?? [ZONE],
  });
  await couriers.setDuty(c.id, true);
  await couriers.reportPosition(c.id, {
    lat: PICKUP.lat + km / 111,
    lng: PICKUP.lng,
    at: new Date(at),
  });
  return c;
}

export async function productionOrder(s: PartnerSetup): Promise<string> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.order_details.order_id;
}

/** The open offer's courier for an order, from the board. */
export async function offeredTo(p: TestPlatform, orderId: string): Promise<string | null> {
  const board = await p.admin('GET', '/dispatch/board');
  return board.body.data.find((e: any) => e.order_id === orderId)?.offered_to ?? null;
}

/** The app error code of a rejected call. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

/**
 * Gives `courierId` the order and takes it to the drop-off with the recipient's code already
 * given, so that the next "delivered" action is the one under test.
 */
export async function toDropoff(
  p: TestPlatform,
  orderId: string,
  courierId: string,
): Promise<void> {
  const svc = p.app.platform.dispatch!.service;
  await svc.assign(orderId, courierId);
  await svc.arrivedAtPickup(courierId, orderId);
  await svc.pickedUp(courierId, orderId);
  await svc.arrived(courierId, orderId);
  const { code } = await p.app.platform.proofs.issueCode(orderId, { rotate: true });
  await p.app.platform.proofs.verifyCode(orderId, code!, courierId);
}
