import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import { CourierActions, registerPresenceActions } from './actions.ts';
import { PushSubscriptions } from './push-subscriptions.ts';
import { courierRoutes } from './routes/couriers.ts';
import { CouriersService } from './service.ts';
import { CourierSignIn, type SendText } from './sign-in.ts';

/** How often the retention job deletes actions past their week (a few hours late changes nothing). */
const ACTION_RETENTION_EVERY_MS = 60 * 60_000;

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  sms: { sender: { send: (message: Parameters<SendText>[0]) => Promise<unknown> } };
  endCourierSessions: (courierId: string) => Promise<void>;
}

/** Couriers, their sign-in by text message, the courier app's actions (its own: duty and position) and its push subscriptions. */
export const couriersModule = defineModule({
  name: 'couriers',
  tables: ['couriers', 'courier_sign_in_codes', 'courier_actions', 'courier_push_subscriptions'],
  needs: ['endCourierSessions'],
  build: ({ db, clock, log, sms, endCourierSessions }: Needs) => {
    const couriers = new CouriersService(db, clock);
    const courierSignIn = new CourierSignIn({
      db,
      clock,
      couriers,
      sendText: async (m) => void (await sms.sender.send(m)),
      log,
    });
    const courierActions = new CourierActions(db, clock);
    registerPresenceActions(courierActions, couriers);
    return {
      face: {
        couriers,
        courierSignIn,
        courierActions,
        pushSubscriptions: new PushSubscriptions(db, clock),
      },
      // A deactivated courier is signed out everywhere at once.
      adminRoutes: courierRoutes(couriers, { onDeactivated: endCourierSessions }),
      workers: [
        WorkerLoop.every(
          'courier-action-retention',
          ACTION_RETENTION_EVERY_MS,
          async () => {
            const deleted = await courierActions.prune();
            if (deleted) log.info({ deleted }, 'courier actions past their retention deleted');
          },
          log,
        ),
      ],
      settled: () => courierSignIn.settled(),
    };
  },
});
