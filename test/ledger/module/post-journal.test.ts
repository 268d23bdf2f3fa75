import { describe, expect, it } from 'vitest';
import {
  journalStatements,
  ledgerRepository as ledger,
} from '../../../src/modules/ledger/repository.ts';
import type { Journal } from '../../../src/modules/ledger/journal.ts';
import type { Db, Queryable } from '../../../src/platform/db/index.ts';
import { fileDatabase } from '../../helpers/file-database.ts';
import { onPostgres } from '../../helpers/harness.ts';

// A journal, its entries and the move of the one wallet it touches are one statement: a
// wallet-funded order's transaction pays one round trip for its fee, not two. The guard, the
// first entry that creates a wallet and the refusal behave as before.

const AT = new Date('2026-12-01T09:00:00Z');
const database = fileDatabase(async (db) => {
  await db.query(
    `insert into partners (id, name, credit_limit_pesewas) values
       ('ptn_funded', 'Funded', 0), ('ptn_credit', 'On credit', 500), ('ptn_fresh', 'No wallet yet', 0),
       ('ptn_holder', 'Held', 0)`,
  );
  await db.query(
    `insert into wallets (partner_id, balance_pesewas) values ('ptn_funded', 1000), ('ptn_credit', 0), ('ptn_holder', 1000)`,
  );
});

let n = 0;
const fee = (partnerId: string, pesewas: number): Journal => ({
  kind: 'order_fee',
  subjectId: `dlv_journal_${++n}`,
  memo: 'test fee',
  entries: [
    { account: `wallet:${partnerId}`, amountPesewas: -pesewas, walletOf: partnerId },
    { account: 'revenue:delivery_fees', amountPesewas: pesewas },
  ],
});

/** The guarded debit (an order's fee) as one statement of its own, as postJournal runs the unguarded form. */
async function postGuarded(q: Queryable, journal: Journal, floorOf: string): Promise<void> {
  const { ctes, params } = journalStatements(journal, AT, { floorOf });
  await q.query(`with ${ctes.map((c) => `${c.name} as (${c.sql})`).join(', ')} select 1`, params);
}

/** Posts in a transaction of its own, guarded when `floorOf` is given, counting the statements it ran. */
async function post(db: Db, journal: Journal, floorOf?: string): Promise<number> {
  let statements = 0;
  await db.transaction(async (tx) => {
    const counted: Queryable = {
      ...tx,
      query: (sql, params) => {
        statements++;
        return tx.query(sql, params);
      },
    };
    if (floorOf) await postGuarded(counted, journal, floorOf);
    else await ledger.postJournal(counted, journal, AT);
  });
  return statements;
}

const balanceOf = async (db: Db, partnerId: string) =>
  (
    await db.query<{ balance_pesewas: number }>(
      'select balance_pesewas from wallets where partner_id = $1',
      [partnerId],
    )
  )[0]?.balance_pesewas;
const journalsOf = async (db: Db, subjectId: string) =>
  (await db.query('select id from ledger_journals where subject_id = $1', [subjectId])).length;

describe('posting a journal', () => {
  it('writes the journal, its entries and the wallet move in one statement', async () => {
    const db = database();
    const journal = fee('ptn_funded', 300);
    expect(await post(db, journal, 'ptn_funded')).toBe(1);
    expect(await balanceOf(db, 'ptn_funded')).toBe(700);
    const entries = await db.query<{ account: string; amount_pesewas: number }>(
      `select e.account, e.amount_pesewas from ledger_entries e join ledger_journals j on j.id = e.journal_id
        where j.subject_id = $1 order by e.account`,
      [journal.subjectId],
    );
    expect(entries).toEqual([
      { account: 'revenue:delivery_fees', amount_pesewas: 300 },
      { account: 'wallet:ptn_funded', amount_pesewas: -300 },
    ]);
  });

  it('refuses a guarded debit past the credit limit and leaves nothing behind', async () => {
    const db = database();
    const journal = fee('ptn_credit', 501);
    await expect(post(db, journal, 'ptn_credit')).rejects.toMatchObject({
      code: 'INSUFFICIENT_WALLET_BALANCE',
    });
    expect(await balanceOf(db, 'ptn_credit')).toBe(0);
    expect(await journalsOf(db, journal.subjectId)).toBe(0);
    // Up to the credit limit is allowed.
    await post(db, fee('ptn_credit', 500), 'ptn_credit');
    expect(await balanceOf(db, 'ptn_credit')).toBe(-500);
  });

  it('moves an unguarded entry past the limit (a return fee is charged whatever the balance)', async () => {
    const db = database();
    await post(db, fee('ptn_funded', 5000));
    expect(await balanceOf(db, 'ptn_funded')).toBeLessThan(0);
  });

  it("creates a partner's wallet with its first entry", async () => {
    const db = database();
    const credit: Journal = {
      kind: 'wallet_topup',
      subjectId: 'top_first',
      memo: 'first top-up',
      entries: [
        { account: 'cash:gateway', amountPesewas: -2500 },
        { account: 'wallet:ptn_fresh', amountPesewas: 2500, walletOf: 'ptn_fresh' },
      ],
    };
    await post(db, credit);
    expect(await balanceOf(db, 'ptn_fresh')).toBe(2500);
  });

  it('posts a journal without a wallet entry, moving no wallet', async () => {
    const db = database();
    const before = await balanceOf(db, 'ptn_funded');
    const settlement: Journal = {
      kind: 'sale_settlement',
      subjectId: 'sal_no_wallet',
      memo: 'no wallet',
      entries: [
        { account: 'cash:gateway', amountPesewas: -900 },
        { account: 'payable:vendor', amountPesewas: 900 },
      ],
    };
    expect(await post(db, settlement)).toBe(1);
    expect(await journalsOf(db, 'sal_no_wallet')).toBe(1);
    expect(await balanceOf(db, 'ptn_funded')).toBe(before);
  });

  it('refuses a journal that moves two wallets', async () => {
    const db = database();
    const two: Journal = {
      kind: 'transfer',
      subjectId: 'two_wallets',
      memo: 'two wallets',
      entries: [
        { account: 'wallet:ptn_funded', amountPesewas: -100, walletOf: 'ptn_funded' },
        { account: 'wallet:ptn_credit', amountPesewas: 100, walletOf: 'ptn_credit' },
      ],
    };
    await expect(post(db, two)).rejects.toThrow(/one wallet at most/);
    expect(await journalsOf(db, 'two_wallets')).toBe(0);
  });

  it('joins another statement: both are written, or neither when the debit is refused', async () => {
    const db = database();
    const joined = (partnerId: string, pesewas: number, marker: string) => {
      const debit = journalStatements(fee(partnerId, pesewas), AT, { floorOf: partnerId }, 2);
      return db.query(
        `with marker as (insert into partners (id, name) values ($1, 'marker'))${debit.ctes
          .map((c) => `, ${c.name} as (${c.sql})`)
          .join('')} select 1 as done`,
        [marker, ...debit.params],
      );
    };
    const partnerIds = async () =>
      (await db.query<{ id: string }>("select id from partners where name = 'marker'")).map(
        (r) => r.id,
      );
    await db.query(
      "insert into partners (id, name, credit_limit_pesewas) values ('ptn_joined', 'Joined', 500)",
    );
    // A guarded debit of a wallet not yet created is refused until the wallet is opened.
    await expect(joined('ptn_joined', 100, 'ptn_no_wallet')).rejects.toMatchObject({
      code: 'INSUFFICIENT_WALLET_BALANCE',
    });
    expect(await balanceOf(db, 'ptn_joined')).toBeUndefined();
    expect(await ledger.openWallet(db, 'ptn_joined')).toBe(true);
    expect(await ledger.openWallet(db, 'ptn_joined')).toBe(false);
    await expect(joined('ptn_joined', 501, 'ptn_refused')).rejects.toMatchObject({
      code: 'INSUFFICIENT_WALLET_BALANCE',
    });
    expect(await partnerIds()).toEqual([]);
    expect(await balanceOf(db, 'ptn_joined')).toBe(0);
    await joined('ptn_joined', 500, 'ptn_taken');
    expect(await partnerIds()).toEqual(['ptn_taken']);
    expect(await balanceOf(db, 'ptn_joined')).toBe(-500);
  });

  // PostgreSQL only: the embedded database runs one transaction at a time.
  it.runIf(onPostgres)(
    'refuses a debit without waiting for another spend that holds the wallet',
    async () => {
      const db = database();
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const held = new Promise<void>((r) => (holding = r));
      const spend = db.transaction(async (tx) => {
        await postGuarded(tx, fee('ptn_holder', 1), 'ptn_holder');
        holding();
        await released;
      });
      await held;
      // Were the refusal to wait for the spend's row lock, it would settle only after the release.
      const refusal = post(db, fee('ptn_holder', 10_000_000), 'ptn_holder').then(
        () => 'debited',
        (err: { code?: string }) => err.code,
      );
      let bound: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        refusal,
        new Promise((r) => (bound = setTimeout(() => r('still waiting'), 5000))),
      ]);
      clearTimeout(bound);
      release();
      await spend;
      expect(outcome).toBe('INSUFFICIENT_WALLET_BALANCE');
    },
  );
});
