/** Pure helpers for the drop-off point of a sale's delivery quote, and catalog page cursors. */

export interface NamedPoint {
  id: string;
  name: string;
  coordinates: { lat: number; lng: number };
}

/** Names an address may use for an area: 'La (Labadi)' answers to 'La (Labadi)' and 'Labadi'. */
function aliases(name: string): string[] {
  const out = [name];
  const m = /^(.*?)\s*\(([^)]+)\)\s*$/.exec(name);
  if (m) out.push(m[1]!, m[2]!);
  // Two-letter names ('La') match too much free text; an area is matched by its longer names only.
  return out.map((s) => s.trim()).filter((s) => s.length >= 3);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The known area an address names, as whole words, case-insensitively; the longest name wins, so
 * "East Legon" beats "Legon", then the earlier entry (curated areas come first). Null when none.
 */
export function areaNamedIn(address: string, areas: readonly NamedPoint[]): NamedPoint | null {
  const text = ` ${address.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  let best: NamedPoint | null = null;
  let bestLength = 0;
  for (const area of areas) {
    for (const alias of aliases(area.name)) {
      const words = alias
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      if (words.length <= bestLength) continue;
      if (new RegExp(` ${escapeRegExp(words)} `, 'u').test(text)) {
        best = area;
        bestLength = words.length;
      }
    }
  }
  return best;
}

/** Opaque keyset cursors (shared with other partner lists). */
export { decodeCursor, encodeCursor } from '../../../platform/cursor.ts';
