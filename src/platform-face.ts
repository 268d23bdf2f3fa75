import type { Config } from './config.ts';
import type { Composition } from './composition.ts';
import type { Faces } from './context.ts';
import type { PaymentGateways } from './integrations/payments/index.ts';
import type { MailQueue } from './integrations/mail/index.ts';
import type { PipelineDeps } from './platform/auth/pipeline.ts';
import type { Db } from './platform/db/index.ts';
import type { GuardStore } from './platform/guard/types.ts';
import type { AdminRoute } from './platform/http/admin.ts';
import type { Operation } from './platform/http/operation.ts';

type Shown =
  | 'accounts'
  | 'wallet'
  | 'delivery'
  | 'dispatch'
  | 'cash'
  | 'payouts'
  | 'reconciliation'
  | 'catalog'
  | 'audit'
  | 'operators'
  | 'operatorSignIn'
  | 'activation'
  | 'members'
  | 'sessions'
  | 'couriers'
  | 'courierSignIn'
  | 'courierActions'
  | 'proofs'
  | 'proofConfirmations'
  | 'dispatcher';

/** What a built app shows as `app.platform` (tests, the playground's first start, scripts): the settings, the stores and the modules' faces. */
export interface Platform extends Pick<Faces, Shown> {
  config: Config;
  db: Db;
  guard: GuardStore;
  operations: readonly Operation[];
  /** Which payment gateway serves which environment. */
  gateways: PaymentGateways;
  adminRoutes: readonly AdminRoute[];
  /** The signed-request pipeline, for mounting further partner operations. */
  pipeline: PipelineDeps;
  /** Mail waiting to leave, and the worker that sends it. */
  mailQueue: MailQueue;
}

export function platformOf(
  { ctx: c, operations, adminRoutes }: Composition,
  pipeline: PipelineDeps,
): Platform {
  const {
    config,
    db,
    accounts,
    guard,
    gateways,
    audit,
    operators,
    operatorSignIn,
    activation,
    wallet,
    delivery,
    dispatch,
    cash,
    payouts,
    reconciliation,
    dispatcher,
    catalog,
    members,
    mailQueue,
    sessions,
    proofs,
    proofConfirmations,
    couriers,
    courierSignIn,
    courierActions,
  } = c;
  return {
    config,
    db,
    accounts,
    guard,
    gateways,
    operations,
    adminRoutes,
    audit,
    operators,
    operatorSignIn,
    activation,
    pipeline,
    wallet,
    delivery,
    dispatch,
    cash,
    payouts,
    reconciliation,
    dispatcher,
    catalog,
    members,
    mailQueue,
    sessions,
    proofs,
    proofConfirmations,
    couriers,
    courierSignIn,
    courierActions,
  };
}
