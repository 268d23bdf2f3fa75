import { describe, expect, it } from 'vitest';
import { settlementJournal } from './journals.ts';

describe('a settlement journal', () => {
  it('moves the gross off the clearing, the net to the bank and the fee to gateway fees, leaving out a zero leg', () => {
    expect(settlementJournal('paystack', 'S1', 10_000, 195)).toMatchObject({
      kind: 'gateway_settlement',
      subjectId: 'paystack:S1',
      entries: [
        { account: 'gateway_clearing:paystack', amountPesewas: 10_000 },
        { account: 'platform_bank', amountPesewas: -9_805 },
        { account: 'gateway_fees', amountPesewas: -195 },
      ],
    });
    expect(settlementJournal('hubtel', 'S2', 500, 0).entries).toEqual([
      { account: 'gateway_clearing:hubtel', amountPesewas: 500 },
      { account: 'platform_bank', amountPesewas: -500 },
    ]);
  });
});
