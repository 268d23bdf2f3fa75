import type { Composition } from './composition.ts';
import type { Context } from './context.ts';
import type { PipelineDeps } from './platform/auth/pipeline.ts';
import type { AdminRoute } from './platform/http/admin.ts';
import type { Operation } from './platform/http/operation.ts';

/**
 * The parts of the composed context a built app shows as `app.platform` (tests, the playground's
 * first start, scripts): the settings, the stores, the payment gateways per environment, the mail
 * queue and the modules' faces. One list: the type and the object are both made from it.
 */
const SHOWN = [
  'config',
  'db',
  'guard',
  'gateways',
  'mailQueue',
  'mail',
  'sms',
  'accounts',
  'wallet',
  'delivery',
  'dispatch',
  'messages',
  'cash',
  'earnings',
  'payouts',
  'reconciliation',
  'catalog',
  'audit',
  'operators',
  'operatorSignIn',
  'activation',
  'members',
  'sessions',
  'couriers',
  'courierSignIn',
  'courierActions',
  'proofs',
  'proofConfirmations',
  'dispatcher',
  'webhookAdmin',
  'journals',
] as const satisfies readonly (keyof Context)[];

export interface Platform extends Pick<Context, (typeof SHOWN)[number]> {
  operations: readonly Operation[];
  adminRoutes: readonly AdminRoute[];
  /** The signed-request pipeline, for mounting further partner operations. */
  pipeline: PipelineDeps;
}

export function platformOf(
  { ctx, operations, adminRoutes }: Composition,
  pipeline: PipelineDeps,
): Platform {
  const shown = Object.fromEntries(SHOWN.map((key) => [key, ctx[key]]));
  return { ...(shown as Pick<Context, (typeof SHOWN)[number]>), operations, adminRoutes, pipeline };
}
