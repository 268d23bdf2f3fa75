import type { Unlisten } from './types.ts';

/** LISTENs started on first need and shared: `ready` starts them (or waits for them), `stop` ends them. */
export interface SharedListen {
  ready(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * LISTENs started by the first caller that needs them and shared by the later ones. A start that
 * failed (the database briefly unreachable) is not kept: the next caller starts them again, or a
 * live channel would stay deaf until a restart. Of several started together, those that did start
 * are stopped when another failed, so the next start does not listen twice.
 */
export function listenOnce(start: () => ReadonlyArray<Promise<Unlisten>>): SharedListen {
  let heard: Promise<Unlisten[]> | undefined;
  const begin = async () => {
    const settled = await Promise.allSettled(start());
    const stops = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = settled.find((s) => s.status === 'rejected');
    if (!failed) return stops;
    await Promise.allSettled(stops.map((stop) => stop()));
    throw failed.reason;
  };
  return {
    ready: async () => {
      if (!heard) {
        const starting = begin();
        heard = starting;
        // Forgotten before its waiters hear of the failure: the next ask starts again.
        starting.catch(() => {
          if (heard === starting) heard = undefined;
        });
      }
      await heard;
    },
    stop: async () => {
      const started = heard;
      heard = undefined;
      for (const stop of (await started?.catch(() => undefined)) ?? []) await stop();
    },
  };
}
