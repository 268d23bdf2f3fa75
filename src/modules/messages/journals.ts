/** The messages' journals: a recipient message charged to the partner's wallet, and given back when it never left. */
import {
  assertBalanced,
  MESSAGING_REVENUE,
  positive,
  walletAccount,
  type Journal,
} from '../ledger/index.ts';

/** A message's cost moves from the partner's wallet to messaging revenue (subject: the message). */
export function messageJournal(partnerId: string, messageId: string, cost: number): Journal {
  positive(cost);
  return assertBalanced({
    kind: 'recipient_message',
    subjectId: messageId,
    memo: 'a text message to a recipient',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: -cost, walletOf: partnerId },
      { account: MESSAGING_REVENUE, amountPesewas: cost },
    ],
  });
}

/** A message the provider never accepted (given up after its attempts): its cost goes back to the wallet. */
export function messageRefundJournal(partnerId: string, messageId: string, cost: number): Journal {
  positive(cost);
  return assertBalanced({
    kind: 'recipient_message_refund',
    subjectId: messageId,
    memo: 'refund of a text message that could not be sent',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: cost, walletOf: partnerId },
      { account: MESSAGING_REVENUE, amountPesewas: -cost },
    ],
  });
}
