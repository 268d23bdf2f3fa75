import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../../../src/modules/sessions/index.ts';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { statements } from '../../helpers/statements.ts';

const MINUTE = 60_000;

describe('web sessions: idle and absolute ends, sign-out everywhere', () => {
  let p: TestPlatform;
  let now = Date.parse('2026-03-06T09:00:00Z');
  let store: SessionStore;
  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    store = new SessionStore(p.app.platform.db, () => now, {
      idleMs: 30 * MINUTE,
      absoluteMs: 120 * MINUTE,
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('ends a session left idle, and one past its absolute end however busy', async () => {
    const idle = await store.start({ kind: 'member', id: 'mbr_idle' });
    now += 29 * MINUTE;
    expect((await store.find(idle.id))?.subject).toEqual({ kind: 'member', id: 'mbr_idle' });
    now += 29 * MINUTE;
    // Used 29 minutes ago: still alive (each use restarts the idle clock).
    expect(await store.find(idle.id)).toBeDefined();
    now += 31 * MINUTE;
    expect(await store.find(idle.id)).toBeUndefined();

    const busy = await store.start({ kind: 'member', id: 'mbr_busy' });
    for (let i = 0; i < 5; i++) {
      now += 20 * MINUTE;
      expect(await store.find(busy.id)).toBeDefined();
    }
    now += 21 * MINUTE;
    expect(await store.find(busy.id)).toBeUndefined();
  });

  it('finds several sessions in one read, restarting the live ones’ idle clocks; ended and unknown ids are left out', async () => {
    const a = await store.start({ kind: 'courier', id: 'cou_many_a' });
    const b = await store.start({ kind: 'courier', id: 'cou_many_b' });
    const ended = await store.start({ kind: 'courier', id: 'cou_many_c' });
    await store.end(ended.id);
    for (let i = 0; i < 3; i++) {
      now += 20 * MINUTE;
      const found = await store.findMany([a.id, b.id, ended.id, 'not-a-session']);
      expect([...found.keys()].sort()).toEqual([a.id, b.id].sort());
      expect(found.get(a.id)?.subject).toEqual({ kind: 'courier', id: 'cou_many_a' });
    }
    // Only a's clock keeps running from here: b, left idle past 30 minutes, has ended.
    now += 20 * MINUTE;
    expect((await store.findMany([a.id])).size).toBe(1);
    now += 20 * MINUTE;
    expect([...(await store.findMany([a.id, b.id])).keys()]).toEqual([a.id]);
    expect(await store.findMany([])).toEqual(new Map());
  });

  it('restarts an idle clock in a statement that does not wait for the WAL flush', async () => {
    const { id } = await store.start({ kind: 'courier', id: 'cou_flush' });
    now += 2 * MINUTE;
    const queries = vi.spyOn(p.app.platform.db, 'query');
    try {
      expect(await store.find(id)).toBeDefined();
      const touches = statements(queries, /web_sessions/);
      expect(touches).toHaveLength(1);
      expect(touches[0]).toMatch(/update web_sessions[\s\S]*synchronous_commit/);
    } finally {
      queries.mockRestore();
    }
  });

  it('ends every session of one subject and no one else’s', async () => {
    const [a1, a2, b] = await Promise.all([
      store.start({ kind: 'member', id: 'mbr_a' }),
      store.start({ kind: 'member', id: 'mbr_a' }),
      store.start({ kind: 'operator', id: 'mbr_a' }),
    ]);
    expect(a1.id).not.toBe(a2.id);
    expect(a1.session.csrfToken).not.toBe(a2.session.csrfToken);
    expect(await store.endAllFor({ kind: 'member', id: 'mbr_a' })).toBe(2);
    expect(await store.find(a1.id)).toBeUndefined();
    expect(await store.find(a2.id)).toBeUndefined();
    expect((await store.find(b.id))?.subject.kind).toBe('operator');
  });

  it('sweeps ended sessions when new ones start', async () => {
    now += 24 * 60 * MINUTE;
    await store.start({ kind: 'member', id: 'mbr_new' });
    expect(
      await countRows(
        p,
        "select count(*)::int as n from web_sessions where subject_id <> 'mbr_new'",
      ),
    ).toBe(0);
  });
});
