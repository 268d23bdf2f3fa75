import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/platform/db/index.ts';
import { openScratchDb } from '../../helpers/raw-db.ts';
import { ExactlyOnceSender, type ExactlyOnceSteps } from '../../../src/platform/exactly-once.ts';

const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
const quiet = { warn() {}, info() {}, error() {}, debug() {} } as never;
const GRACE_MS = 60_000;
let db: Db;

interface Row {
  id: string;
  status: 'created' | 'sending' | 'done';
  sending_since: Date | null;
}
type Answer = { state: 'done'; ref: string };

/**
 * A provider that keeps each reference it received once (it dedupes by our reference) and can be told
 * how its next call goes: answered, answered but the answer lost, a 500 before it recorded anything,
 * or a call that never returns (the process died after or before the provider recorded it).
 */
class FakeProvider {
  readonly received = new Map<string, number>();
  calls = 0;
  next: Array<'lose-answer' | '500' | 'die-after' | 'die-before'> = [];
  claimedDuringCall: string[] = [];

  async send(id: string): Promise<Answer> {
    this.calls++;
    // The claim was committed before the call: another connection sees it.
    this.claimedDuringCall.push(
      (await db.query<Row>('select status from eo_sends where id = $1', [id]))[0]!.status,
    );
    const how = this.next.shift();
    if (how === '500') throw new Error('500 Internal Server Error');
    if (how === 'die-before') return new Promise(() => {});
    this.received.set(id, (this.received.get(id) ?? 0) + 1);
    if (how === 'die-after') return new Promise(() => {});
    if (how === 'lose-answer') throw new Error('timeout');
    return { state: 'done', ref: `p-${id}` };
  }

  async status(id: string): Promise<Answer | 'unknown'> {
    return this.received.has(id) ? { state: 'done', ref: `p-${id}` } : 'unknown';
  }
}

let now = Date.parse('2026-01-01T00:00:00Z');
const at = (d: Date) => new Date(d.getTime() + GRACE_MS);

function sender(provider: FakeProvider): ExactlyOnceSender<Row, Answer> {
  const steps: ExactlyOnceSteps<Row, Answer> = {
    noun: 'send',
    logKey: (r) => ({ id: r.id }),
    keyOf: (r) => r.id,
    claim: async (tx, id, t) =>
      (
        await tx.query<Row>(
          "update eo_sends set status = 'sending', sending_since = $2, next_check_at = $3 where id = $1 and status = 'created' returning *",
          [id, t, at(t)],
        )
      )[0],
    call: (r) => provider.send(r.id),
    apply: async (tx, r, a) => {
      const done = await tx.query(
        "update eo_sends set status = 'done', provider_ref = $2 where id = $1 and status = 'sending' returning id",
        [r.id, a.ref],
      );
      if (done.length > 0) await tx.query('insert into eo_ledger (send_id) values ($1)', [r.id]);
    },
    status: (r) => provider.status(r.id),
    reclaim: async (tx, r, t) =>
      (
        await tx.query<Row>(
          "update eo_sends set sending_since = $3, next_check_at = $4 where id = $1 and status = 'sending' and sending_since = $2 returning *",
          [r.id, r.sending_since, t, at(t)],
        )
      )[0],
    due: [
      (d, t, limit) =>
        d.query<Row>(
          "select * from eo_sends where status in ('created', 'sending') and next_check_at <= $1 order by id limit $2",
          [t, limit],
        ),
    ],
    unsent: (r) => r.status === 'created',
  };
  return new ExactlyOnceSender({ db, clock: () => now, log: quiet }, steps);
}

const state = async (id: string) => {
  const [row] = await db.query<{ status: string; ledger: number }>(
    'select status, (select count(*)::int from eo_ledger l where l.send_id = s.id) as ledger from eo_sends s where id = $1',
    [id],
  );
  return row;
};

beforeAll(async () => {
  db = await openScratchDb(3);
  await db.exec(`create table eo_sends (id text primary key, status text not null, sending_since timestamptz, next_check_at timestamptz, provider_ref text);
    create table eo_ledger (send_id text not null)`);
});
afterAll(() => db.close());
beforeEach(async () => {
  await db.exec(
    "truncate eo_sends, eo_ledger; insert into eo_sends (id, status, next_check_at) values ('s1', 'created', '2026-01-01T00:00:00Z')",
  );
});

describe(`the platform's exactly-once sender (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('claims and commits before the call, applies the answer once, and a second send changes nothing', async () => {
    const provider = new FakeProvider();
    const s = sender(provider);
    expect(await s.send('s1')).toMatchObject({ id: 's1', status: 'sending' });
    expect(await s.send('s1')).toBeUndefined();
    expect(provider.claimedDuringCall).toEqual(['sending']);
    expect(await state('s1')).toEqual({ status: 'done', ledger: 1 });
    expect(provider.calls).toBe(1);
  });

  it('a lost answer stays in flight and is resolved by its status, never sent twice', async () => {
    const provider = new FakeProvider();
    provider.next = ['lose-answer'];
    const s = sender(provider);
    await s.send('s1');
    expect(await state('s1')).toEqual({ status: 'sending', ledger: 0 });
    expect(await s.recover(10)).toBe(0); // not before its next check
    now += GRACE_MS;
    expect(await s.recover(10)).toBe(1);
    expect(await state('s1')).toEqual({ status: 'done', ledger: 1 });
    expect(provider.calls).toBe(1);
    expect(provider.received.get('s1')).toBe(1);
  });

  it('a 500 before the provider recorded it: sent again under the same reference, applied once', async () => {
    const provider = new FakeProvider();
    provider.next = ['500'];
    const s = sender(provider);
    await s.send('s1');
    now += GRACE_MS;
    await s.recover(10);
    expect(await state('s1')).toEqual({ status: 'done', ledger: 1 });
    expect(provider.calls).toBe(2);
    expect(provider.received.get('s1')).toBe(1);
    await s.recover(10);
    expect(provider.calls).toBe(2);
  });

  it.each(['die-after', 'die-before'] as const)(
    'a crash between claim and apply (%s the provider recorded it): another instance recovers it once',
    async (how) => {
      const provider = new FakeProvider();
      provider.next = [how];
      void sender(provider).send('s1'); // this instance dies in the call: its answer never comes
      await expect.poll(() => provider.calls).toBe(1);
      now += GRACE_MS;
      const restarted = sender(provider);
      await restarted.recover(10);
      expect(await state('s1')).toEqual({ status: 'done', ledger: 1 });
      expect(provider.received.get('s1')).toBe(1);
      expect(provider.calls).toBe(how === 'die-after' ? 1 : 2);
    },
  );

  it('two instances recovering the same lost send at once call the provider again only once', async () => {
    const provider = new FakeProvider();
    provider.next = ['500'];
    await sender(provider).send('s1');
    now += GRACE_MS;
    await Promise.all([sender(provider).recover(10), sender(provider).recover(10)]);
    expect(await state('s1')).toEqual({ status: 'done', ledger: 1 });
    expect(provider.calls).toBe(2);
  });

  it('a late or repeated answer changes nothing, and a hint applies a known status without resending', async () => {
    const provider = new FakeProvider();
    provider.next = ['lose-answer'];
    const s = sender(provider);
    const claimed = (await s.send('s1'))!;
    await s.confirm(claimed);
    await s.confirm(claimed);
    await s.apply(claimed, { state: 'done', ref: 'late' });
    expect(await state('s1')).toEqual({ status: 'done', ledger: 1 });
    expect(provider.calls).toBe(1);
  });
});
