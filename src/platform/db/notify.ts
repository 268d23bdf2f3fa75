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

/** One coalescing sender per channel. */
export function notifier(
  send: (channel: string) => Promise<void>,
  gapMs: number,
): (channel: string) => void {
  const channels = new Map<string, () => void>();
  return (channel) => {
    let wake = channels.get(channel);
    if (!wake) channels.set(channel, (wake = coalescing(() => send(channel), gapMs)));
    wake();
  };
}
