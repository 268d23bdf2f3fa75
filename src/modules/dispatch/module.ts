import type { Registry } from 'prom-client';
import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Logger } from '../../platform/logger.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import type { CouriersService } from '../couriers/index.ts';
import type { DeliveryModule } from '../delivery/index.ts';
import { ClockSteps } from './clock-steps.ts';
import { Offers, OFFER_BATCH } from './offers.ts';
import { DISPATCH_CHANNEL } from './repository.ts';
import { SandboxCourier } from './sandbox-courier.ts';
import { dispatchAdminRoutes } from './routes/admin-dispatch.ts';
import { DispatchService } from './service.ts';
import type { DispatchSettings } from './settings.ts';
import { CourierTrail } from './trail.ts';
import { WindowWatch } from './window-watch.ts';
import { registerDispatchGauges } from './metrics.ts';
import { defineModule } from '../../platform/module.ts';

export interface DispatchModule {
  service: DispatchService;
  offers: Offers;
  /** The simulated courier that takes staging orders through dispatch. */
  sandbox: SandboxCourier;
  /** Live location of couriers on jobs; delivery's CourierTracker. */
  trail: CourierTrail;
  /** Orders that will miss their delivery window: flagged and announced once (delivery.order.late). */
  windows: WindowWatch;
  /** The steps of a sandbox test clock's jobs, run when the clock advances. */
  clockSteps: ClockSteps;
  workers: WorkerLoop[];
  adminRoutes: AdminRoute[];
}

const TRAIL_RETENTION_EVERY_MS = 10 * 60_000;

export interface DispatchModuleDeps {
  settings: DispatchSettings;
  db: Db;
  clock: () => number;
  log: Logger;
  delivery: DeliveryModule;
  couriers: CouriersService;
}

/**
 * Dispatch: new orders offered to couriers (staging's to the sandbox courier), their job actions, operators' board and assignments.
 * What it hears of new orders, of their moves and of couriers' positions is wired by `src/flows/`.
 */
export function createDispatchModule({
  settings,
  db,
  clock,
  log,
  delivery,
  couriers,
}: DispatchModuleDeps): DispatchModule {
  const offers = new Offers(db, couriers, settings, clock, log);
  const service = new DispatchService(db, delivery.orders, couriers, offers, clock);
  const sandbox = new SandboxCourier(
    db,
    couriers,
    offers,
    service,
    settings.sandboxStepSeconds * 1000,
    clock,
  );
  const windows = new WindowWatch(db, delivery.orders, clock, log);
  const trail = new CourierTrail(
    db,
    delivery.orders,
    couriers,
    windows,
    settings.locationRetentionHours,
    clock,
    log,
  );
  return {
    service,
    offers,
    sandbox,
    trail,
    windows,
    clockSteps: new ClockSteps(db, sandbox, windows),
    workers: [
      // Woken by each new job's commit (orders.create → offer in milliseconds), and on its interval for
      // offers expiring, scheduled jobs falling due, jobs going late and windows about to be missed.
      // Off (DISPATCH_INTERVAL_MS=0) it neither polls nor listens.
      ...(settings.intervalMs > 0
        ? [
            new WorkerLoop(db, log, {
              name: 'dispatch',
              channel: DISPATCH_CHANNEL,
              pollMs: settings.intervalMs,
              minGapMs: 20,
              round: async () => {
                const { offered } = await offers.tick();
                await windows.sweep();
                return offered >= OFFER_BATCH;
              },
            }),
          ]
        : []),
      // Twice a step, so each staging order moves between one and one and a half steps after its last move.
      WorkerLoop.every(
        'sandbox-courier',
        settings.sandboxStepSeconds > 0 ? Math.max(250, settings.sandboxStepSeconds * 500) : 0,
        () => sandbox.tick(),
        log,
      ),
      // Retention of couriers' trails on jobs still open: where the dispatcher runs, every ten minutes.
      WorkerLoop.every(
        'courier-trail-retention',
        settings.intervalMs > 0 ? TRAIL_RETENTION_EVERY_MS : 0,
        () => trail.prune(),
        log,
      ),
    ],
    adminRoutes: dispatchAdminRoutes(service),
  };
}

type Needs = Omit<DispatchModuleDeps, 'delivery' | 'settings'> & {
  delivery: DeliveryModule | undefined;
  config: { dispatch: DispatchSettings };
};

/** Dispatch's declaration: it exists where delivery does (it offers delivery's production orders). */
export const dispatchModule = defineModule({
  name: 'dispatch',
  tables: ['dispatch_jobs', 'dispatch_offers', 'dispatch_assignments', 'dispatch_trail'],
  needs: ['delivery', 'couriers'],
  enabled: ({ delivery }: Needs) => delivery !== undefined,
  settings: ({ config }: Needs) => config.dispatch,
  build: (needs: Needs, settings: DispatchSettings) => {
    const dispatch = createDispatchModule({ ...needs, delivery: needs.delivery!, settings });
    return {
      face: { dispatch },
      adminRoutes: dispatch.adminRoutes,
      workers: dispatch.workers,
      gauges: (registry: Registry) => registerDispatchGauges(registry, needs.db),
    };
  },
});
