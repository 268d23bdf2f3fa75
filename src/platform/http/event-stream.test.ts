import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EventStreams,
  type EventStreamsOptions,
  shownDigest,
  type StreamMessage,
} from './event-stream.ts';

/** A stand-in for a hijacked reply: what the stream writes, as text. */
function fakeReply() {
  const written: string[] = [];
  const raw = {
    writeHead: () => raw,
    write: (chunk: string) => written.push(chunk),
    end: () => undefined,
    on: () => raw,
  };
  return { reply: { raw, hijack: () => undefined } as unknown as FastifyReply, written };
}
const request = { headers: {} } as FastifyRequest;
const silent = { warn: () => undefined } as never;

describe('EventStreams.refresh', () => {
  it('reads only the keys a change names, every watched key without a name, and sends what changed', async () => {
    const version = new Map([
      ['cou_a', 1],
      ['cou_b', 1],
    ]);
    const loaded: string[][] = [];
    const streams = new EventStreams<string>({
      name: 'test',
      heartbeatMs: 60_000,
      log: silent,
      load: async (keys) => {
        loaded.push([...keys]);
        return new Map(
          keys.map((k): [string, StreamMessage] => {
            const v = version.get(k)!;
            return [k, { id: `${k}-${v}`, event: 'job', data: { v } }];
          }),
        );
      },
    });
    const a = fakeReply();
    const b = fakeReply();
    await streams.open(request, a.reply, 'cou_a', 'ses_1');
    await streams.open(request, b.reply, 'cou_b', 'ses_2');
    loaded.length = 0;

    version.set('cou_a', 2);
    await streams.refresh(['cou_a', 'cou_unwatched']);
    expect(loaded).toEqual([['cou_a']]);
    expect(a.written.at(-1)).toContain('id: cou_a-2');
    expect(b.written.filter((w) => w.startsWith('id:'))).toHaveLength(1);

    await streams.refresh(['cou_nobody']);
    expect(loaded).toHaveLength(1);

    version.set('cou_b', 2);
    await streams.refresh();
    expect(loaded.at(-1)!.sort()).toEqual(['cou_a', 'cou_b']);
    expect(b.written.at(-1)).toContain('id: cou_b-2');
    // cou_a's message did not change: nothing more was written to its stream.
    expect(a.written.filter((w) => w.startsWith('id:'))).toHaveLength(2);
    streams.closeAll();
  });
});

/** Streams beating every 10 ms, each key's message its own key, asking `stillAllowed` at each beat. */
const beating = (stillAllowed: EventStreamsOptions<string>['stillAllowed']) =>
  new EventStreams<string>({
    name: 'test',
    heartbeatMs: 10,
    log: silent,
    load: async (keys) =>
      new Map(keys.map((k): [string, StreamMessage] => [k, { id: k, event: 'job', data: {} }])),
    stillAllowed,
  });

describe('EventStreams heartbeat', () => {
  afterEach(() => vi.useRealTimers());

  it('asks about every open stream in one call per beat, ends those no longer allowed and stops when none is open', async () => {
    vi.useFakeTimers();
    const asked: string[][] = [];
    const signedOut = new Set<string>();
    const streams = beating(async (open) => {
      asked.push(open.map((s) => s.holder));
      return open.map((s) => !signedOut.has(s.holder));
    });
    const a = fakeReply();
    const b = fakeReply();
    let bEnded = false;
    (b.reply.raw as unknown as { end: () => void }).end = () => void (bEnded = true);
    await streams.open(request, a.reply, 'cou_a', 'ses_1');
    await streams.open(request, b.reply, 'cou_b', 'ses_2');

    await vi.advanceTimersByTimeAsync(10);
    expect(asked).toEqual([['ses_1', 'ses_2']]);
    expect(a.written.at(-1)).toBe(': heartbeat\n\n');
    expect(b.written.at(-1)).toBe(': heartbeat\n\n');

    signedOut.add('ses_2');
    await vi.advanceTimersByTimeAsync(10);
    expect(bEnded).toBe(true);
    expect(streams.size).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(asked.at(-1)).toEqual(['ses_1']);

    streams.closeAll();
    await vi.advanceTimersByTimeAsync(100);
    expect(asked).toHaveLength(3);
  });

  it('ends every stream when the check fails (their clients connect again)', async () => {
    const streams = beating(async () => {
      throw new Error('the database is down');
    });
    await streams.open(request, fakeReply().reply, 'cou_a', 'ses_1');
    await streams.open(request, fakeReply().reply, 'cou_b', 'ses_2');
    await vi.waitFor(() => expect(streams.size).toBe(0));
  });
});

describe('shownDigest', () => {
  it('is the same id for the same content and another for other content, a short event id', () => {
    const shown = [['msg_1', 'sent', null]];
    expect(shownDigest(shown)).toBe(shownDigest([['msg_1', 'sent', null]]));
    expect(shownDigest(shown)).not.toBe(shownDigest([['msg_1', 'delivered', null]]));
    // The ids pages already hold (Last-Event-ID) stay valid: sha256 of the JSON, base64url, 22 characters.
    expect(shownDigest({ a: 1 })).toBe('AVq9f1zFei3ZS3WQ8ErYCE');
  });
});
