/**
 * A line imported again (same gateway or provider, type and reference): the same line changes
 * nothing; one that moved on as money moves (pending then paid, paid then reversed, settled since)
 * replaces the held one; any other amount, fee or status is a second version, kept beside the first
 * and listed as a difference, never dropped. Pure.
 */
import type { TransferLineState } from './statement.ts';

export interface Version {
  amountPesewas: number;
  feePesewas: number;
  status: string;
}

export type Reimport = 'same' | 'progress' | 'conflict';

const sameVersion = (a: Version, b: Version) =>
  a.amountPesewas === b.amountPesewas &&
  a.feePesewas === b.feePesewas &&
  a.status.toLowerCase() === b.status.toLowerCase();

/** A gateway's report line: one held as not succeeded may succeed since; one held without its settlement may be settled since. */
export function reportReimport(
  held: Version & { succeeded: boolean; settlementId: string | null },
  next: Version & { succeeded: boolean; settlementId: string | null },
): Reimport {
  if (sameVersion(held, next))
    return held.settlementId === null && next.settlementId !== null ? 'progress' : 'same';
  return !held.succeeded && next.succeeded ? 'progress' : 'conflict';
}

/** A transfer statement line: a pending transfer may end any way; a paid one may be reversed (the same amount). */
export function statementReimport(
  held: Version & { state: TransferLineState },
  next: Version & { state: TransferLineState },
): Reimport {
  if (sameVersion(held, next)) return 'same';
  if (held.state === 'pending' && next.state !== 'pending') return 'progress';
  return held.state === 'paid' &&
    next.state === 'reversed' &&
    held.amountPesewas === next.amountPesewas
    ? 'progress'
    : 'conflict';
}

/** A version in words, for a difference's note: "GHS 120.50, fee 1.95, success". */
export const versionText = (v: Version) =>
  `GHS ${(v.amountPesewas / 100).toFixed(2)}, fee ${(v.feePesewas / 100).toFixed(2)}, ${v.status}`;
