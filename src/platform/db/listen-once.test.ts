import { describe, expect, it } from 'vitest';
import { listenOnce } from './listen-once.ts';

/** LISTENs on two channels whose first start fails on the second channel (the database unreachable). */
function twoChannels() {
  const log: string[] = [];
  let starts = 0;
  const listen = (channel: string, fail: boolean) => {
    log.push(`listen ${channel}`);
    return fail
      ? Promise.reject(new Error('connect ECONNREFUSED'))
      : Promise.resolve(async () => void log.push(`stop ${channel}`));
  };
  const shared = listenOnce(() => {
    starts++;
    return [listen('a', false), listen('b', starts === 1)];
  });
  return { log, shared, starts: () => starts };
}

describe('LISTENs started once and shared', () => {
  it('starts again after a failed start, stopping what the failed one did start', async () => {
    const { log, shared, starts } = twoChannels();
    await expect(shared.ready()).rejects.toThrow('ECONNREFUSED');
    expect(log).toEqual(['listen a', 'listen b', 'stop a']);
    await shared.ready();
    await shared.ready();
    expect(starts()).toBe(2);
    await shared.stop();
    expect(log.slice(3)).toEqual(['listen a', 'listen b', 'stop a', 'stop b']);
  });

  it('shares one start among callers that ask at once, and a failed one among them', async () => {
    const { shared, starts } = twoChannels();
    const both = await Promise.allSettled([shared.ready(), shared.ready()]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await Promise.all([shared.ready(), shared.ready()]);
    expect(starts()).toBe(2);
  });

  it('stops nothing when never started or when its start failed', async () => {
    const { log, shared } = twoChannels();
    await shared.stop();
    expect(log).toEqual([]);
    await expect(shared.ready()).rejects.toThrow();
    await shared.stop();
    expect(log).toEqual(['listen a', 'listen b', 'stop a']);
  });
});
