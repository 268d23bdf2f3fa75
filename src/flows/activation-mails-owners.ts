import type { MailQueue } from '../integrations/mail/index.ts';
import { MailActivationNotifier, type ActivationNotifier } from '../modules/activation/index.ts';
import type { MembersService } from '../modules/members/index.ts';
import type { Db } from '../platform/db/index.ts';
import { ownerEmails } from './destination-change-notifies-payee.ts';

/** Activation's port: a decision is mailed to the partner's owners (members), unless a test passes its own notifier. */
export const activationNotifier = (ctx: {
  options: { activationNotifier?: ActivationNotifier | undefined };
  members: MembersService;
  mailQueue: MailQueue;
  db: Db;
  publicBaseUrl: string;
}): ActivationNotifier =>
  ctx.options.activationNotifier ??
  new MailActivationNotifier({
    ownerEmails: ownerEmails(() => ctx.members),
    send: (m) => ctx.mailQueue.send(ctx.db, m),
    publicBaseUrl: ctx.publicBaseUrl,
  });
