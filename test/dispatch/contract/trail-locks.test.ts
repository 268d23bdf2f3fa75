import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createPartner,
  onPostgres,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { courierNear, PICKUP, productionOrder } from '../helpers.ts';

// The soak's deadlock: a position report's trail point (which trims the trail, then share-locks the
// job for its foreign key) met the transaction ending the job (which locks the job, then deletes its
// trail). The report now takes the job's lock before it touches the trail. Two sessions are needed:
// the embedded database has one.

describe.runIf(onPostgres)(
  'a trail point beside the transaction ending its job (PostgreSQL)',
  () => {
    let p: TestPlatform;
    let s: PartnerSetup;
    beforeAll(async () => {
      p = await startPlatform();
      s = await createPartner(p, { environment: 'production' });
    });
    afterAll(() => p.close());

    it('waits for the job, holding none of the trail, so the ending transaction deletes the trail at once', async () => {
      const courier = await courierNear(p, 2, Date.now());
      const id = await productionOrder(s);
      await p.app.platform.dispatch!.service.assign(id, courier.id);
      const { db } = p.app.platform;
      // A full trail (50 points): the next point trims the oldest.
      await db.query(
        `insert into dispatch_trail (order_id, lat, lng, at)
       select $1, $2, $3, now() - make_interval(secs => 300 - g) from generate_series(1, 60) g`,
        [id, PICKUP.lat, PICKUP.lng],
      );
      const trail = () =>
        countRows(p, 'select count(*)::int as n from dispatch_trail where order_id = $1', [id]);

      let reported: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await tx.query('select 1 from dispatch_jobs where order_id = $1 for update', [id]);
        reported = p.app.platform.couriers
          .reportPosition(courier.id, { lat: PICKUP.lat, lng: PICKUP.lng, at: new Date() })
          .then(
            () => 'reported',
            (err: unknown) => err,
          );
        await expect
          .poll(
            async () =>
              (
                await db.query(
                  `select 1 from pg_stat_activity where wait_event_type = 'Lock'
                  and query like '%insert into dispatch_trail%'`,
                )
              ).length,
            { timeout: 10_000, interval: 20 },
          )
          .toBe(1);
        // Well inside the deadlock check's 1 s: a trail row held by the report fails this at once.
        await tx.query("select set_config('lock_timeout', '200ms', true)");
        await tx.query('delete from dispatch_trail where order_id = $1', [id]);
      });
      expect(await reported).toBe('reported');
      expect(await trail()).toBe(1);
    });
  },
);
