import type { FastifyInstance } from 'fastify';
import type { TransferProvider } from '../../integrations/transfers/types.ts';
import type { Db } from '../../platform/db/index.ts';
import type { AdminRoute } from '../../platform/http/admin.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Operation } from '../../platform/http/operation.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import { DestinationChanges, type DestinationNotices } from './destination-changes.ts';
import { DestinationSwitch } from './destination-switch.ts';
import type { PayeeDirectory } from './directory.ts';
import { PartnerPayouts } from './partner-payouts.ts';
import { PayeesService } from './payees.ts';
import { payoutAdminRoutes } from './routes/admin-payouts.ts';
import { partnerPayoutOperations } from './routes/partner-payouts.ts';
import { registerTransferWebhook, type OtherTransferHints } from './routes/transfer-webhook.ts';
import { RunRequests } from './run-requests.ts';
import { RunSender } from './run-sender.ts';
import { PayoutRuns } from './runs.ts';
import { PayoutSender } from './sender.ts';
import { PayoutsService, type CodVendorsOf, type HeldSubjects } from './service.ts';
import type { PayoutSettings } from './settings.ts';
import { DestinationVerifier } from './verification.ts';
import { defineModule } from '../../platform/module.ts';

export interface PayoutsModule {
  payees: PayeesService;
  /** Operators' destination changes, approved by a second operator. */
  changes: DestinationChanges;
  /** Destinations checked with the provider before money goes; a second operator accepts one that needs review. */
  verifier: DestinationVerifier;
  service: PayoutsService;
  /** Same-day runs asked for by courier cash handovers, in their transactions (see RunRequests). */
  runRequests: RunRequests;
  /** Sends, recovers and applies provider answers (also the provider webhooks' hints). */
  sender: PayoutSender;
  adminRoutes: AdminRoute[];
  /** The partner API's reads of a partner's own payouts (production keys, payouts:read). */
  operations: Operation[];
  workers: WorkerLoop[];
  /** Mounts the provider's transfer webhook (public) on the app; `others` hears of references that are no payout. */
  registerWebhook(app: FastifyInstance, others?: OtherTransferHints): void;
}

/** Payouts to vendors and partners through one transfer provider. */
export function createPayoutsModule(deps: {
  db: Db;
  clock: () => number;
  log: Logger;
  provider: TransferProvider;
  settings: PayoutSettings;
  directory: PayeeDirectory;
  notices?: DestinationNotices;
  /** The vendors of cod sales (the catalog's; none without it): whom a handover's same-day run may pay. */
  codVendorsOf?: CodVendorsOf;
  /** Sales whose money waits for their recipient's confirmation: a run leaves their shares. */
  held?: HeldSubjects;
}): PayoutsModule {
  const { db, clock, log, provider, settings, directory } = deps;
  const sender = new PayoutSender({ db, clock, log, provider, settings, directory });
  const verifier = new DestinationVerifier({ db, clock, log, provider });
  const destinations = new DestinationSwitch({ db, clock, sender, verifier });
  const payees = new PayeesService(db, clock, settings, directory, destinations);
  const changes = new DestinationChanges({
    db,
    clock,
    log,
    provider,
    directory,
    destinations,
    notices: deps.notices,
  });
  const runs = new PayoutRuns({
    db,
    clock,
    log,
    payees,
    settings,
    provider: provider.name,
    held: deps.held,
  });
  const runSender = new RunSender({ db, log, provider, settings, sender });
  const service = new PayoutsService({
    db,
    clock,
    log,
    runs,
    runSender,
    sender,
    settings,
    verifier,
  });
  const codVendorsOf = deps.codVendorsOf ?? (async () => []);
  const runRequests = new RunRequests({
    db,
    clock,
    log,
    settings,
    run: (h) => service.afterHandover(h, codVendorsOf),
  });
  return {
    payees,
    changes,
    verifier,
    service,
    runRequests,
    sender,
    adminRoutes: payoutAdminRoutes(service, payees, changes, verifier),
    operations: partnerPayoutOperations(new PartnerPayouts(db, payees)),
    workers: [
      WorkerLoop.every('payouts', settings.intervalMs, () => service.tick(), log),
      WorkerLoop.every('payout-run-requests', settings.intervalMs, () => runRequests.runDue(), log),
    ],
    registerWebhook: (app, others) => registerTransferWebhook(app, sender, provider.name, others),
  };
}

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  transfers: TransferProvider;
  config: { services: ReadonlySet<string>; payouts: PayoutSettings };
  payeeDirectory: PayeeDirectory;
  payoutNotices: DestinationNotices;
  codVendorsOf: CodVendorsOf;
  heldSubjects: HeldSubjects;
  refundHints: OtherTransferHints;
}

/** Payouts to vendors and partners, and the provider's transfer events. */
export const payoutsModule = defineModule({
  name: 'payouts',
  tables: [
    'payout_destinations',
    'payout_destination_changes',
    'payout_schedules',
    'payout_runs',
    'payouts',
    'payout_lines',
    'payout_run_requests',
  ],
  needs: ['payeeDirectory', 'payoutNotices', 'codVendorsOf', 'heldSubjects', 'refundHints'],
  build: ({
    db,
    clock,
    log,
    transfers,
    config,
    payeeDirectory,
    payoutNotices,
    codVendorsOf,
    heldSubjects,
    refundHints,
  }: Needs) => {
    const payouts = createPayoutsModule({
      db,
      clock,
      log,
      provider: transfers,
      settings: config.payouts,
      directory: payeeDirectory,
      notices: payoutNotices,
      codVendorsOf,
      held: heldSubjects,
    });
    return {
      face: { payouts },
      // Partners are paid their markup on sales: their payouts are read under the safe-catalog paths.
      operations: config.services.has('safe-catalog') ? payouts.operations : [],
      adminRoutes: payouts.adminRoutes,
      // A transfer event about a reference that is no payout may be a buyer refund's: it is passed on.
      pages: (app: FastifyInstance) => payouts.registerWebhook(app, refundHints),
      workers: payouts.workers,
      settled: () => payouts.runRequests.settled(),
    };
  },
});
