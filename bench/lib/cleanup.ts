/** Cleanups (stop servers, drop schemas, remove Redis keys) that run once, also on Ctrl-C or errors. */
const pending = new Set<() => Promise<void>>();

/** Registers a cleanup; it runs at the next `runCleanups()` (newest first). */
export function onCleanup(fn: () => Promise<void>): void {
  pending.add(fn);
}

export async function runCleanups(): Promise<void> {
  for (const fn of [...pending].reverse()) {
    pending.delete(fn);
    await fn().catch((err: unknown) => console.error(`cleanup failed: ${(err as Error).message}`));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the bench servers`);
    void runCleanups().finally(() => process.exit(130));
  });
}
