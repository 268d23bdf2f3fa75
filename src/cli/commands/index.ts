import type { Command } from '../command.ts';
import { activationCommands, activationGroups } from './activation.ts';
import { appCommands, appGroups } from './apps.ts';
import { cashCommands, cashGroups } from './cash.ts';
import { payCommands, payGroups } from './pay.ts';
import { payoutCommands, payoutGroups } from './payouts.ts';
import { reconcileCommands, reconcileGroups } from './reconcile.ts';
import { refundCommands, refundGroups } from './refunds.ts';
import { catalogCommands, catalogGroups } from './catalog.ts';
import { courierCommands, courierGroups } from './couriers.ts';
import { deliveryCommands, deliveryGroups } from './delivery.ts';
import { dispatchCommands, dispatchGroups } from './dispatch.ts';
import { operatorCommands, operatorGroups } from './operators.ts';
import { partnerCommands, partnerGroups } from './partners.ts';
import { webhookCommands, webhookGroups } from './webhooks.ts';

/** Command groups with their summaries, in help order. */
export const groups: Readonly<Record<string, string>> = {
  ...partnerGroups,
  ...appGroups,
  ...webhookGroups,
  ...deliveryGroups,
  ...dispatchGroups,
  ...cashGroups,
  ...payGroups,
  ...payoutGroups,
  ...reconcileGroups,
  ...catalogGroups,
  ...refundGroups,
  ...courierGroups,
  ...operatorGroups,
  ...activationGroups,
};

/**
 * Every operator API command: the table mapping `group command` to the route it calls
 * (test/cli/contract/coverage.test.ts holds every /admin/v1 route of the server to one of them).
 */
export const commands: readonly Command[] = [
  ...partnerCommands,
  ...appCommands,
  ...webhookCommands,
  ...deliveryCommands,
  ...dispatchCommands,
  ...cashCommands,
  ...payCommands,
  ...payoutCommands,
  ...reconcileCommands,
  ...catalogCommands,
  ...refundCommands,
  ...courierCommands,
  ...operatorCommands,
  ...activationCommands,
];
