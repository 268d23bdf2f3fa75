import { describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  countRows,
  createPartner,
  onPostgres,
  onRedis,
  useTwoInstances,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';

let now = Date.now();

// Two instances on one PostgreSQL schema run the sandbox courier as one.
describe.runIf(onPostgres && onRedis)('the sandbox courier across two instances', () => {
  const two = useTwoInstances({ clock: () => now });

  it('moves each staging order once per step when both instances tick at once', async () => {
    const { a, b } = two;
    const s = await createPartner(a);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(
        (await s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body: orderBody() }))
          .body.data.order_details.order_id,
      );
    const ticks = () =>
      Promise.all([a, b, a, b].map((x) => x.app.platform.dispatch!.sandbox.tick()));
    for (const expected of ['accepted', 'pickedUp', 'in_transit', 'delivered']) {
      now += 31_000;
      const moved = await ticks();
      expect(
        moved.reduce((n, m) => n + m, 0),
        expected,
      ).toBe(ids.length);
      for (const id of ids) {
        const statuses = (await eventsAbout(a, id))
          .sort((x, y) => x.sequence - y.sequence)
          .map((e) => ({ status: ((e.payload as any).data?.status ?? null) as string | null }));
        expect(statuses.at(-1)?.status).toBe(expected);
        expect(statuses.filter((e) => e.status === expected)).toHaveLength(1);
      }
    }
    for (const id of ids) {
      expect(
        await countRows(a, 'select count(*)::int as n from dispatch_offers where order_id = $1', [
          id,
        ]),
      ).toBe(1);
      expect(
        await countRows(
          a,
          'select count(*)::int as n from dispatch_assignments where order_id = $1',
          [id],
        ),
      ).toBe(1);
      expect(
        await countRows(
          a,
          `select count(*)::int as n from delivery_order_events where order_id = $1 and status = 'delivered'`,
          [id],
        ),
      ).toBe(1);
    }
    expect(await countRows(a, 'select count(*)::int as n from couriers where simulated')).toBe(1);
  });
});
