import {
  assertBalanced,
  courierCash,
  courierPayable,
  DELIVERY_REVENUE,
  PLATFORM_CASH,
  positive,
  RIDER_CASH_CLEARING,
  type Journal,
  type LedgerEntry,
} from '../../ledger/index.ts';

/** What the recipient pays the courier at the door, in pesewas: a recipient-paid delivery fee and a cod sale's total. */
export interface CashDue {
  feePesewas: number;
  codPesewas: number;
}

/**
 * What is due at the door for an order: a safe-catalog sale's cod total (its delivery fee is inside
 * it; a prepaid sale owes nothing), else the fee of an order the recipient pays and has not paid.
 */
export function cashDue(
  order: { payer: string; payment_status: string; fee_pesewas: number | null } | undefined,
  sale: { codPesewas: number } | undefined,
): CashDue {
  if (sale) return { feePesewas: 0, codPesewas: sale.codPesewas };
  const fee =
    order?.payer === 'recipient' && order.payment_status === 'pending'
      ? (order.fee_pesewas ?? 0)
      : 0;
  return { feePesewas: fee, codPesewas: 0 };
}

export const totalDue = (due: CashDue): number => due.feePesewas + due.codPesewas;

/**
 * Cash a courier collected for one order: the courier's cash account is debited (negative) with it.
 * A cod sale's total credits the riders' clearing account, which the sale's settlement debits in the
 * same transaction, so the cash ends on the courier; a recipient-paid fee is delivery revenue.
 */
export function cashCollectedJournal(orderId: string, courierId: string, due: CashDue): Journal {
  const credits: LedgerEntry[] = [];
  if (due.codPesewas > 0)
    credits.push({ account: RIDER_CASH_CLEARING, amountPesewas: due.codPesewas });
  if (due.feePesewas > 0)
    credits.push({ account: DELIVERY_REVENUE, amountPesewas: due.feePesewas });
  return assertBalanced({
    kind: 'courier_cash_collected',
    subjectId: orderId,
    memo: `cash collected on delivery by ${courierId}`,
    entries: [
      { account: courierCash(courierId), amountPesewas: -positive(totalDue(due)) },
      ...credits,
    ],
  });
}

/** A courier hands cash in: it leaves the courier's account for the platform's cash. */
export function cashHandoverJournal(
  handoverId: string,
  courierId: string,
  amount: number,
): Journal {
  return assertBalanced({
    kind: 'courier_cash_handover',
    subjectId: handoverId,
    memo: `cash handed in by ${courierId}`,
    entries: [
      { account: PLATFORM_CASH, amountPesewas: -positive(amount) },
      { account: courierCash(courierId), amountPesewas: amount },
    ],
  });
}

/**
 * Cash a courier holds set against their pay (the pay policy's netting): what the platform owes them
 * comes down, and so does the cash they owe it, by the same amount.
 */
export function cashNettedJournal(earningId: string, courierId: string, amount: number): Journal {
  return assertBalanced({
    kind: 'courier_cash_netted',
    subjectId: earningId,
    memo: `cash held by ${courierId} set against their pay`,
    entries: [
      { account: courierPayable(courierId), amountPesewas: -positive(amount) },
      { account: courierCash(courierId), amountPesewas: amount },
    ],
  });
}
