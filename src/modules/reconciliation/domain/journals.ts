import {
  assertBalanced,
  GATEWAY_FEES,
  gatewayClearing,
  PLATFORM_BANK,
  positive,
  type Journal,
  type LedgerEntry,
} from '../../ledger/index.ts';

/** A settlement moves its gross amount off the gateway's clearing: the net to the bank, the fee to gateway fees. */
export function settlementJournal(
  gateway: string,
  settlementId: string,
  amount: number,
  fee: number,
): Journal {
  positive(amount);
  const entries: LedgerEntry[] = [{ account: gatewayClearing(gateway), amountPesewas: amount }];
  // No zero entries: a settlement without fee (or all fee) leaves that leg out.
  if (amount - fee > 0) entries.push({ account: PLATFORM_BANK, amountPesewas: -(amount - fee) });
  if (fee > 0) entries.push({ account: GATEWAY_FEES, amountPesewas: -fee });
  return assertBalanced({
    kind: 'gateway_settlement',
    subjectId: `${gateway}:${settlementId}`,
    memo: `${gateway} settlement ${settlementId}`,
    entries,
  });
}
