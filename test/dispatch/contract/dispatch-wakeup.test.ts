import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  useTwoInstances,
  onPostgres,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { courierNear, offeredTo, productionOrder } from '../helpers.ts';

// The dispatch worker is woken by a new order's commit, not by its poll: with the poll an hour away,
// an order placed is offered to a courier at once (on PostgreSQL, by whichever instance listens).
const HOUR_POLL = { env: { DISPATCH_INTERVAL_MS: '3600000' } };

/** Waits for the order's offer (read from the board) and answers how long it took. */
async function offerIn(p: TestPlatform, orderId: string, started: number): Promise<number> {
  await expect.poll(() => offeredTo(p, orderId), { timeout: 5000, interval: 20 }).not.toBeNull();
  return Date.now() - started;
}

describe('dispatch woken by the commit', () => {
  let p: TestPlatform;
  let s: PartnerSetup;
  beforeAll(async () => {
    p = await startPlatform(HOUR_POLL);
    s = await createPartner(p, { environment: 'production' });
  });
  afterAll(() => p?.close());

  it('offers a new order within moments although the next poll is an hour away', async () => {
    const courier = await courierNear(p, 1, Date.now());
    const started = Date.now();
    const id = await productionOrder(s);
    const ms = await offerIn(p, id, started);
    expect(await offeredTo(p, id)).toBe(courier.id);
    console.info(`orders.create → offer in ${ms} ms`);
  });
});

describe.runIf(onPostgres)('dispatch woken by a commit on another instance (PostgreSQL)', () => {
  const two = useTwoInstances({ env: { DISPATCH_INTERVAL_MS: '3600000' } });

  it('offers an order placed through one instance at once, the poll an hour away on both', async () => {
    const { a, b } = two;
    const partner = await createPartner(b, { environment: 'production' });
    await courierNear(a, 1, Date.now());
    const started = Date.now();
    const id = await productionOrder(partner);
    console.info(
      `orders.create on one instance → offer by the other in ${await offerIn(a, id, started)} ms`,
    );
  });
});
