import type { Queryable } from '../../platform/db/index.ts';
import type { Reimport, Version } from './domain/versions.ts';
import { versionsRepository as versions } from './versions-repository.ts';

/** What importing one line did: new, brought up to date, kept as a second version, or nothing (held as it is). */
export type Saved = 'inserted' | 'updated' | 'reimported' | 'same';

/** One line's table: insert it when new, read the held one (locked), replace it. */
export interface LineStore<H> {
  insert(): Promise<boolean>;
  held(): Promise<H>;
  replace(): Promise<void>;
}

/** Where a line's second version goes (report_line_versions), should it be one. */
export type SecondVersion = Parameters<typeof versions.add>[1];

/**
 * Saves one imported line in the import's transaction: a new line is inserted; one held is compared
 * (`classify`): the same changes nothing, one that moved on replaces it, any other is kept as a
 * second version (once). Answers the days whose result it changes.
 */
export async function saveLine<H extends Version & { day: string }>(
  tx: Queryable,
  store: LineStore<H>,
  classify: (held: H) => Promise<Reimport>,
  second: SecondVersion,
): Promise<{ saved: Saved; days: string[] }> {
  if (await store.insert()) return { saved: 'inserted', days: [second.day] };
  const held = await store.held();
  const how = await classify(held);
  const days = [...new Set([held.day, second.day])];
  if (how === 'progress') {
    await store.replace();
    return { saved: 'updated', days };
  }
  if (how === 'conflict' && (await versions.add(tx, second))) return { saved: 'reimported', days };
  return { saved: 'same', days: [] };
}

/** An import's tally, as its answer shows it. */
export class Tally {
  readonly counts = { inserted: 0, updated: 0, reimported: 0, same: 0 };
  readonly days = new Set<string>();

  add(r: { saved: Saved; days: string[] }): void {
    this.counts[r.saved]++;
    for (const d of r.days) this.days.add(d);
  }

  answer(lines: number) {
    return {
      lines,
      inserted: this.counts.inserted,
      updated: this.counts.updated,
      already_imported: this.counts.same,
      reimported_differently: this.counts.reimported,
    };
  }
}
