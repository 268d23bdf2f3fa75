import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger, walletAccount } from '../../../src/modules/ledger/index.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

const ENTRIES = 120;

describe('the wallet statement', () => {
  it('is empty, not an error, for a partner without a wallet yet', async () => {
    const { partnerId } = await createPartner(p);
    expect(await ledger.statement(p.app.platform.db, partnerId, { limit: 10 })).toEqual([]);
  });
  it('gives every page of a long history the same running balances as summing the whole history', async () => {
    const { partnerId } = await createPartner(p);
    const db = p.app.platform.db;
    const start = Date.UTC(2026, 0, 1);
    // Credits and debits, several posted at one instant (ordered by journal id), in a few transactions.
    for (let batch = 0; batch < ENTRIES; batch += 40) {
      await db.transaction(async (tx) => {
        for (let i = batch; i < Math.min(batch + 40, ENTRIES); i++) {
          const amount = i % 3 === 2 ? -(1_000 + i) : 5_000 + i * 7;
          const journal = {
            kind: 'statement_test',
            subjectId: `s_${i}`,
            memo: 'test',
            entries: [
              { account: walletAccount(partnerId), amountPesewas: amount, walletOf: partnerId },
              { account: 'statement_test', amountPesewas: -amount },
            ],
          };
          await ledger.postJournal(tx, journal, new Date(start + Math.floor(i / 4) * 60_000));
        }
      });
    }
    // The expected running balances: the whole history summed oldest first, then newest first.
    const history = await db.query<{ journal_id: string; amount_pesewas: number }>(
      'select journal_id, amount_pesewas from ledger_entries where account = $1 order by created_at, journal_id',
      [walletAccount(partnerId)],
    );
    expect(history).toHaveLength(ENTRIES);
    let running = 0;
    const expected = history
      .map((e) => ({
        journal_id: e.journal_id,
        balance_after_pesewas: (running += e.amount_pesewas),
      }))
      .reverse();
    expect(running).toBe(await ledger.balance(db, partnerId));

    for (const limit of [7, 25, 500]) {
      const paged: Array<{ journal_id: string; balance_after_pesewas: number }> = [];
      let before: string | undefined;
      for (;;) {
        const page = await ledger.statement(db, partnerId, {
          limit,
          ...(before ? { beforeJournalId: before } : {}),
        });
        paged.push(
          ...page.map((e) => ({
            journal_id: e.journal_id,
            balance_after_pesewas: e.balance_after_pesewas,
          })),
        );
        if (page.length < limit) break;
        before = page.at(-1)!.journal_id;
      }
      expect(paged, `pages of ${limit}`).toEqual(expected);
    }
  });
});
