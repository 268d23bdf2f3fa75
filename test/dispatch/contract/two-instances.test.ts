import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  countRows,
  createPartner,
  onPostgres,
  onRedis,
  useTwoInstances,
} from '../../helpers/harness.ts';
import { codeOf, courierNear, offeredTo, productionOrder } from '../helpers.ts';

// Two instances on one PostgreSQL schema dispatch as one.
describe.runIf(onPostgres && onRedis)('dispatch across two instances', () => {
  const two = useTwoInstances();

  it('offers a job once when both dispatch at once, lets one of 20 accepts over both win, and applies a replay once', async () => {
    const { a, b } = two;
    const s = await createPartner(a, { environment: 'production' });
    const couriers = await Promise.all([0.5, 1, 2].map((km) => courierNear(a, km, Date.now())));
    const id = await productionOrder(s);
    await Promise.all([
      a.app.platform.dispatch!.offers.tick(),
      b.app.platform.dispatch!.offers.tick(),
      a.app.platform.dispatch!.offers.tick(),
    ]);
    expect(
      await countRows(a, 'select count(*)::int as n from dispatch_offers where order_id = $1', [
        id,
      ]),
    ).toBe(1);
    const holder = (await offeredTo(b, id))!;
    expect(holder).toBe(couriers[0]!.id);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        codeOf(
          (i % 2 ? a : b).app.platform.dispatch!.service.accept(
            i % 4 < 2 ? holder : couriers[1]!.id,
            id,
          ),
        ),
      ),
    );
    expect(results.filter((r) => r === 'OK')).toHaveLength(1);
    expect(
      await countRows(
        a,
        'select count(*)::int as n from dispatch_assignments where order_id = $1',
        [id],
      ),
    ).toBe(1);

    // The courier app's "picked up" sent four times at once over both instances: one record, one move.
    const pick = {
      id: randomUUID(),
      kind: 'picked_up',
      at: new Date(),
      payload: { order_id: id },
    };
    const picks = await Promise.all(
      [a, b, a, b].map((x) => x.app.platform.courierActions.apply(holder, pick)),
    );
    expect(picks.map((r) => r.result).sort()).toEqual([
      'already_applied',
      'already_applied',
      'already_applied',
      'applied',
    ]);
    for (const r of picks) expect(r).toMatchObject({ stage: 'picked_up', status: 'in_transit' });
    expect(
      (await a.app.platform.courierActions.history(holder)).filter((r) => r.id === pick.id),
    ).toHaveLength(1);
    expect(
      await countRows(
        a,
        `select count(*)::int as n from delivery_order_events where order_id = $1 and status = 'pickedUp'`,
        [id],
      ),
    ).toBe(1);
  });
});
