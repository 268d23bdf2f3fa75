import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { MAIL_PRUNE_BATCH } from '../../../src/integrations/mail/index.ts';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';

const DAY = 86_400_000;
const now = Date.now();
let p: TestPlatform;
beforeAll(async () => {
  // No worker: the test calls prune itself, then runs the worker's loop.
  p = await startPlatform({
    socket: false,
    clock: () => now,
    env: { MAIL_POLL_MS: '0', MAIL_RETENTION_DAYS: '30' },
  });
});
afterAll(() => p.close());

/** `n` messages of one status, finished (sent, or last tried) `daysAgo` days ago; answers their subject. */
async function messages(
  n: number,
  status: 'pending' | 'sent' | 'dead',
  daysAgo: number,
): Promise<string> {
  const subject = `${status} ${daysAgo}d ${Math.random()}`;
  const at = new Date(now - daysAgo * DAY);
  await p.app.platform.db.query(
    `insert into mail_queue (id, to_address, subject, body, status, attempts, next_attempt_at, sent_at)
     select 'mail_prune_' || md5(random()::text || i), 'someone@example.com', $2, '', $3, 1, $4, case when $3 = 'sent' then $4::timestamptz end
       from generate_series(1, $1::int) as i`,
    [n, subject, status, at],
  );
  return subject;
}
const left = (subject: string) =>
  countRows(p, 'select count(*)::int as n from mail_queue where subject = $1', [subject]);

describe('mail_queue retention', () => {
  it('reads MAIL_RETENTION_DAYS (30 by default) and refuses values outside 1..3650', () => {
    expect(loadConfig({}).mail.retentionDays).toBe(30);
    expect(loadConfig({ MAIL_RETENTION_DAYS: '7' }).mail.retentionDays).toBe(7);
    for (const bad of ['0', '-1', '3651', '1.5', 'week'])
      expect(() => loadConfig({ MAIL_RETENTION_DAYS: bad }), bad).toThrow(/MAIL_RETENTION_DAYS/);
  });

  it('deletes sent and dead messages past the retention in bounded batches, and keeps pending and recent ones', async () => {
    const oldSent = await messages(MAIL_PRUNE_BATCH + 20, 'sent', 31);
    const oldDead = await messages(10, 'dead', 45);
    const recentSent = await messages(5, 'sent', 29);
    const recentDead = await messages(5, 'dead', 1);
    const oldPending = await messages(5, 'pending', 60);
    const queue = p.app.platform.mailQueue;
    expect(await queue.prune()).toBe(MAIL_PRUNE_BATCH);
    expect(await queue.prune()).toBe(30);
    expect(await queue.prune()).toBe(0);
    expect([await left(oldSent), await left(oldDead)]).toEqual([0, 0]);
    expect([await left(recentSent), await left(recentDead), await left(oldPending)]).toEqual([
      5, 5, 5,
    ]);
  });
});

describe("the mail worker's loop", () => {
  let w: TestPlatform;
  let at = Date.now();
  beforeAll(async () => {
    w = await startPlatform({
      socket: false,
      clock: () => at,
      env: { MAIL_POLL_MS: '20', MAIL_RETENTION_DAYS: '30' },
    });
  });
  afterAll(() => w.close());

  const oldDead = async (n: number) => {
    const subject = `loop ${Math.random()}`;
    await w.app.platform.db.query(
      `insert into mail_queue (id, to_address, subject, body, status, attempts, next_attempt_at)
       select 'mail_loop_' || md5(random()::text || i), 'someone@example.com', $2, '', 'dead', 8, $3 from generate_series(1, $1::int) as i`,
      [n, subject, new Date(at - 40 * DAY)],
    );
    return subject;
  };
  const count = (subject: string) =>
    countRows(w, 'select count(*)::int as n from mail_queue where subject = $1', [subject]);
  const aWhile = () => new Promise((r) => setTimeout(r, 300));

  it('prunes every ten minutes, and again at once after a full batch', async () => {
    // The worker pruned when it started; the next prune is due ten minutes on.
    await aWhile();
    const many = await oldDead(MAIL_PRUNE_BATCH + 3);
    await aWhile();
    expect(await count(many)).toBe(MAIL_PRUNE_BATCH + 3);
    at += 11 * 60_000;
    await expect.poll(() => count(many), { timeout: 20_000 }).toBe(0);
    const few = await oldDead(4);
    await aWhile();
    expect(await count(few)).toBe(4);
    at += 11 * 60_000;
    await expect.poll(() => count(few), { timeout: 20_000 }).toBe(0);
  });
});
