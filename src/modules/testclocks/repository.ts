import type { Queryable } from '../../platform/db/index.ts';

export interface TestClockRow {
  id: string;
  app_id: string;
  name: string;
  frozen_time: Date;
  status: 'ready' | 'advancing';
  advancing_to: Date | null;
  advance_started_at: Date | null;
  created_at: Date;
  deleted_at: Date | null;
}

const COLS =
  'id, app_id, name, frozen_time, status, advancing_to, advance_started_at, created_at, deleted_at';

export const testClocksRepository = {
  async insert(
    q: Queryable,
    row: Pick<TestClockRow, 'id' | 'app_id' | 'name' | 'frozen_time' | 'created_at'>,
  ): Promise<TestClockRow> {
    return (
      await q.query<TestClockRow>(
        `insert into test_clocks (id, app_id, name, frozen_time, created_at) values ($1, $2, $3, $4, $5) returning ${COLS}`,
        [row.id, row.app_id, row.name, row.frozen_time, row.created_at],
      )
    )[0]!;
  },

  /** The app's clock, not deleted (another app's answers nothing, as an unknown one does). */
  async find(
    q: Queryable,
    appId: string,
    id: string,
    lock = false,
  ): Promise<TestClockRow | undefined> {
    return (
      await q.query<TestClockRow>(
        `select ${COLS} from test_clocks where id = $1 and app_id = $2 and deleted_at is null${lock ? ' for update' : ''}`,
        [id, appId],
      )
    )[0];
  },

  async count(q: Queryable, appId: string): Promise<number> {
    return (
      await q.query<{ n: number }>(
        'select count(*)::int as n from test_clocks where app_id = $1 and deleted_at is null',
        [appId],
      )
    )[0]!.n;
  },

  /** The app's clocks, newest first. */
  async list(q: Queryable, appId: string, limit: number): Promise<TestClockRow[]> {
    return q.query<TestClockRow>(
      `select ${COLS} from test_clocks where app_id = $1 and deleted_at is null order by created_at desc, id desc limit $2`,
      [appId, limit],
    );
  },

  /** Starts an advance: ready → advancing (or takes over one whose lease lapsed); false when another runs. */
  async claim(
    q: Queryable,
    id: string,
    to: Date,
    startedAt: Date,
    lapsedBefore: Date,
  ): Promise<boolean> {
    const rows = await q.query(
      `update test_clocks set status = 'advancing', advancing_to = $2, advance_started_at = $3
        where id = $1 and deleted_at is null and (status = 'ready' or advance_started_at < $4) returning id`,
      [id, to, startedAt, lapsedBefore],
    );
    return rows.length > 0;
  },

  /** Records how far the advance has come (a step done at `at`). */
  async reached(q: Queryable, id: string, at: Date): Promise<void> {
    await q.query('update test_clocks set frozen_time = $2 where id = $1', [id, at]);
  },

  async finish(q: Queryable, id: string, at: Date): Promise<TestClockRow> {
    return (
      await q.query<TestClockRow>(
        `update test_clocks set frozen_time = $2, status = 'ready', advancing_to = null, advance_started_at = null
          where id = $1 returning ${COLS}`,
        [id, at],
      )
    )[0]!;
  },

  /** Ready again after a failed advance, at the last moment it reached. */
  async release(q: Queryable, id: string): Promise<void> {
    await q.query(
      `update test_clocks set status = 'ready', advancing_to = null, advance_started_at = null where id = $1`,
      [id],
    );
  },

  /**
   * Deletes a clock its delete claimed at `claimedAt` (kept as a row, ready, never found again);
   * false when the claim lapsed and another advance or delete took the clock meanwhile.
   */
  async remove(q: Queryable, id: string, at: Date, claimedAt: Date): Promise<boolean> {
    const rows = await q.query(
      `update test_clocks set deleted_at = $2, status = 'ready', advancing_to = null, advance_started_at = null
        where id = $1 and deleted_at is null and advance_started_at = $3 returning id`,
      [id, at, claimedAt],
    );
    return rows.length === 1;
  },
};
