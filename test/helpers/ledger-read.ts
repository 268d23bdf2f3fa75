// Tests read journals as the ledger module shows them (app.platform.journals), not SQL on ledger_journals / ledger_entries.
import type { TestPlatform } from './harness.ts';

export interface Leg {
  account: string;
  amount_pesewas: number;
}

/** How many journals of these kinds about one subject were posted. */
export const journalCount = async (
  p: Pick<TestPlatform, 'app'>,
  kinds: readonly string[],
  subject: string,
): Promise<number> => (await p.app.platform.journals.about(kinds, subject)).length;

/** The legs of the journals of these kinds about one subject, by account (code-point order). */
export async function legsAbout(
  p: Pick<TestPlatform, 'app'>,
  kinds: readonly string[],
  subject: string,
): Promise<Leg[]> {
  const legs: Leg[] = [];
  for (const j of await p.app.platform.journals.about(kinds, subject)) {
    const one = await p.app.platform.journals.journal(j.id);
    if (!one) throw new Error(`journal ${j.id} about ${subject} is not shown`);
    for (const { account, amount_pesewas } of one.legs) legs.push({ account, amount_pesewas });
  }
  return legs.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
}

/** An account's balance in pesewas, as the ledger's read face sums its entries. */
export const accountBalance = (p: Pick<TestPlatform, 'app'>, account: string): Promise<number> =>
  p.app.platform.journals.balance(account);
