import type { SmsSender } from '../integrations/sms/index.ts';
import type { MailQueue } from '../integrations/mail/index.ts';
import type { MembersService } from '../modules/members/index.ts';
import type { DestinationNotices } from '../modules/payouts/index.ts';
import type { Queryable } from '../platform/db/index.ts';

/** The addresses of a partner's owners, from the members module. */
export const ownerEmails =
  (members: () => MembersService) =>
  async (partnerId: string): Promise<string[]> =>
    (await members().team(partnerId)).filter((m) => m.role === 'owner').map((m) => m.email);

/**
 * Payouts' port: an operator's change of a payee's destination is told to the payee's old contact,
 * a vendor by text message, a partner's owners by mail (queued in the change's transaction).
 */
export const payoutNotices = (ctx: {
  members: MembersService;
  sms: { sender: SmsSender };
  mailQueue: MailQueue;
}): DestinationNotices => ({
  text: async (to: string, body: string) => void (await ctx.sms.sender.send({ to, body })),
  ownerEmails: ownerEmails(() => ctx.members),
  mail: (tx: Queryable, to: string, subject: string, text: string) =>
    ctx.mailQueue.send(tx, { to, subject, text }),
});
