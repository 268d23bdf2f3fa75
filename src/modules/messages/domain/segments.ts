/**
 * How many SMS segments a text costs. GSM 03.38's default alphabet packs 160 characters into one
 * segment (153 per segment once a text is split, the rest carrying the joining header); its extension
 * table's characters take two. Any other character makes the whole text UCS-2: 70, then 67 a segment.
 */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENSION = '^{}\\[~]|€\f';
const BASIC_SET = new Set(BASIC);
const EXTENSION_SET = new Set(EXTENSION);

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 units (UCS-2) the text takes. */
  units: number;
  segments: number;
}

/** Whether every character of `text` is in the GSM-7 default alphabet or its extension. */
export function isGsm7(text: string): boolean {
  for (const c of text) if (!BASIC_SET.has(c) && !EXTENSION_SET.has(c)) return false;
  return true;
}

export function segmentsOf(text: string): SegmentCount {
  if (isGsm7(text)) {
    let units = 0;
    for (const c of text) units += EXTENSION_SET.has(c) ? 2 : 1;
    return { encoding: 'gsm7', units, segments: units <= 160 ? 1 : Math.ceil(units / 153) };
  }
  const units = text.length;
  return { encoding: 'ucs2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}
