import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Turns a stream of wake-up calls into few sends: at most one send is in flight, sends start at
 * least `gapMs` apart, and a call made during a send or a gap is carried by the next send, never
 * dropped. A failed send is only a lost hint: listeners still poll.
 */
export function coalescing(send: () => Promise<void>, gapMs: number): () => void {
  let wanted = false;
  let busy = false;
  let lastStart = Number.NEGATIVE_INFINITY;
  const drain = async () => {
    busy = true;
    while (wanted) {
      // Timers may fire a fraction of a millisecond early (whole-ms rounding, a stale loop clock):
      // re-check so the gap is a floor, not an approximation.
      for (
        let wait = lastStart + gapMs - performance.now();
        wait > 0;
        wait = lastStart + gapMs - performance.now()
      ) {
        await sleep(Math.ceil(wait), undefined, { ref: false });
      }
      wanted = false;
      lastStart = performance.now();
      await send().catch(() => {});
    }
    busy = false;
  };
  return () => {
    wanted = true;
    if (!busy) void drain();
  };
}

/**
 * What one wake-up says changed: some keys, or (undefined) anything on the channel. Keys of calls
 * merged into one send travel together; a call without a key makes the send say "anything".
 */
export type Changed = readonly string[] | undefined;

/** The most key text one notification carries (PostgreSQL's payload limit is 8000 bytes). */
const MAX_KEYS_LENGTH = 7000;

/** A notification's payload: the keys comma-separated, or '' for anything (too many, or none named). */
export function encodeChanged(keys: Changed): string {
  if (!keys) return '';
  const text = keys.join(',');
  return text.length <= MAX_KEYS_LENGTH && keys.every((k) => k !== '' && !k.includes(','))
    ? text
    : '';
}

export const decodeChanged = (payload: string | undefined): Changed =>
  payload ? payload.split(',') : undefined;

/** One coalescing sender per channel, carrying the keys of the calls it merges. */
export function notifier(
  send: (channel: string, keys: Changed) => Promise<void>,
  gapMs: number,
): (channel: string, key?: string) => void {
  interface Pending {
    wake: () => void;
    keys: Set<string> | undefined;
  }
  const channels = new Map<string, Pending>();
  const pendingOf = (channel: string): Pending => {
    const entry: Pending = {
      keys: new Set(),
      // Takes the keys gathered so far; calls made during the send gather for the next one.
      wake: coalescing(() => {
        const keys = entry.keys;
        entry.keys = new Set();
        return send(channel, keys && [...keys]);
      }, gapMs),
    };
    channels.set(channel, entry);
    return entry;
  };
  return (channel, key) => {
    const pending = channels.get(channel) ?? pendingOf(channel);
    if (key === undefined) pending.keys = undefined;
    else pending.keys?.add(key);
    pending.wake();
  };
}
