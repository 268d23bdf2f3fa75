/** The wallet's journals: top-ups, and the fees of wallet-funded orders, their refunds and return fees. */
import {
  assertBalanced,
  DELIVERY_REVENUE,
  gatewayClearing,
  positive,
  walletAccount,
  type Journal,
} from '../ledger/index.ts';

/** Money confirmed by a gateway lands in the partner's wallet. */
export function topupJournal(
  partnerId: string,
  topupId: string,
  gateway: string,
  amount: number,
): Journal {
  positive(amount);
  return assertBalanced({
    kind: 'wallet_topup',
    subjectId: topupId,
    memo: `top-up through ${gateway}`,
    entries: [
      { account: walletAccount(partnerId), amountPesewas: amount, walletOf: partnerId },
      { account: gatewayClearing(gateway), amountPesewas: -amount },
    ],
  });
}

/** A wallet-funded order's fee moves from the wallet to delivery revenue. */
export function orderFeeJournal(partnerId: string, orderId: string, fee: number): Journal {
  positive(fee);
  return assertBalanced({
    kind: 'order_fee',
    subjectId: orderId,
    memo: 'delivery fee of a wallet-funded order',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: -fee, walletOf: partnerId },
      { account: DELIVERY_REVENUE, amountPesewas: fee },
    ],
  });
}

/** A returned wallet-funded order's return fee moves from the wallet to delivery revenue (its delivery fee is kept). */
export function orderReturnFeeJournal(partnerId: string, orderId: string, fee: number): Journal {
  positive(fee);
  return assertBalanced({
    kind: 'order_return_fee',
    subjectId: orderId,
    memo: 'return fee of an order brought back to its pickup point',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: -fee, walletOf: partnerId },
      { account: DELIVERY_REVENUE, amountPesewas: fee },
    ],
  });
}

/** The fee of a cancelled wallet-funded order goes back to the wallet. */
export function orderFeeRefundJournal(partnerId: string, orderId: string, fee: number): Journal {
  positive(fee);
  return assertBalanced({
    kind: 'order_fee_refund',
    subjectId: orderId,
    memo: 'refund of a cancelled order fee',
    entries: [
      { account: walletAccount(partnerId), amountPesewas: fee, walletOf: partnerId },
      { account: DELIVERY_REVENUE, amountPesewas: -fee },
    ],
  });
}
