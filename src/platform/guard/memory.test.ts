import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryGuardStore } from './memory.ts';
import { NonceTable } from './nonce-table.ts';

let now = 1_000_000;
const stores: MemoryGuardStore[] = [];
function store(ttlMs = 600_000): MemoryGuardStore {
  const s = new MemoryGuardStore(ttlMs, () => now);
  stores.push(s);
  return s;
}
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

const req = (nonce: string, access: 'read' | 'write' = 'write', limit = 3) => ({
  keyId: 'key_1',
  nonce,
  access,
  limit,
});

describe('MemoryGuardStore', () => {
  it('refuses a nonce seen before for the same key, not for another key', async () => {
    const s = store();
    expect((await s.admit(req('n1'))).kind).toBe('ok');
    expect((await s.admit(req('n1'))).kind).toBe('replayed');
    expect((await s.admit({ ...req('n1'), keyId: 'key_2' })).kind).toBe('ok');
  });

  it('remembers nonces for at least the TTL across generation changes', async () => {
    const s = store(1000);
    await s.admit(req('old'));
    now += 999;
    await s.admit(req('trigger-rotation-a'));
    now += 2;
    expect((await s.admit(req('old'))).kind).toBe('replayed');
  });

  it('accepts a burst of limit, then answers limited until the oldest leaves the 60 s window', async () => {
    const s = store();
    const start = now;
    expect(await s.admit(req('a'))).toEqual({
      kind: 'ok',
      limit: 3,
      remaining: 2,
      resetSeconds: 60,
    });
    now += 10_000;
    await s.admit(req('b'));
    await s.admit(req('c'));
    expect(await s.admit(req('d'))).toEqual({ kind: 'limited', limit: 3, resetSeconds: 50 });
    now = start + 60_000;
    expect((await s.admit(req('e'))).kind).toBe('ok');
    expect((await s.admit(req('f'))).kind).toBe('limited');
  });

  it('keeps reads and writes in separate budgets', async () => {
    const s = store();
    for (const n of ['a', 'b', 'c']) await s.admit(req(n, 'write'));
    expect((await s.admit(req('d', 'write'))).kind).toBe('limited');
    expect((await s.admit(req('e', 'read'))).kind).toBe('ok');
  });

  it('keeps a nonce in a few bytes of heap: 100,000 remembered nonces retain under 10 MB', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const s = store();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++)
      await s.admit({ keyId: 'key_1', nonce: randomUUID(), access: 'read', limit: 1_000_000 });
    gc();
    // A Set of strings retained about 575 bytes a nonce (57 MB here); the table keeps 32-64 bytes
    // outside the heap, and the rate window 8 bytes a request inside it.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10_000_000);
  });

  it('starts a generation sized for what the last one held, and forgets a generation after two TTLs', async () => {
    const s = store(1000);
    for (let i = 0; i < 20_000; i++) await s.admit(req(`first-${i}`, 'read', 1_000_000));
    const first = s.nonceMemory();
    expect(first.nonces).toBe(20_000);
    now += 1000;
    await s.admit(req('rotates', 'read', 1_000_000));
    // The empty second generation gave way to a new one that holds room for 20,000 at once.
    expect(s.nonceMemory().bytes).toBe(
      first.bytes - new NonceTable().bytes + new NonceTable(20_000).bytes,
    );
    expect(new NonceTable(20_000).bytes).toBeGreaterThan(new NonceTable().bytes);
    now += 1000;
    await s.admit(req('rotates-again', 'read', 1_000_000));
    expect(s.nonceMemory().nonces).toBe(2);
    expect((await s.admit(req('first-0', 'read', 1_000_000))).kind).toBe('ok');
  });
});
