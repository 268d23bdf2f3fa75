/** Ghana phone numbers: normalisation to E.164 and masking. */

/**
 * National significant numbers are 9 digits (the trunk 0 dropped).
 * Mobile ranges: 20, 23-28 and 50, 53-57, 59 (MTN, Telecel, AT).
 * Fixed lines: 3X area codes (30 Greater Accra, 31 Western, 32 Ashanti, 33 Central, 34 Eastern,
 * 35 Bono/Ahafo, 36 Volta, 37 Northern, 38 Upper East, 39 Upper West).
 */
const NATIONAL = /^(?:2[0345678]|5[0345679]|3\d)\d{7}$/;

/** Separators people type; anything else (letters, '#', '/') makes the input invalid. */
const SEPARATORS = /[\s\-.()\u00a0]/g;

/**
 * '024 123 4567', '+233 24 123 4567', '233241234567', '00233241234567',
 * '(024) 123-4567' → '+233241234567'. Returns null when the input is not a
 * plausible Ghana number. '+233 (0)24…' is accepted: the stray trunk 0 is common.
 */
export function normalizeGhanaPhone(input: string): string | null {
  if (typeof input !== 'string') return null;
  const compact = input.trim().replace(SEPARATORS, '');
  if (!/^\+?\d+$/.test(compact)) return null;

  let national: string;
  if (compact.startsWith('+')) {
    if (!compact.startsWith('+233')) return null;
    national = compact.slice(4);
  } else if (compact.startsWith('00233')) {
    national = compact.slice(5);
  } else if (
    compact.startsWith('233') &&
    (compact.length === 12 || (compact.length === 13 && compact[3] === '0'))
  ) {
    national = compact.slice(3);
  } else if (compact.startsWith('0') && compact.length === 10) {
    national = compact.slice(1);
  } else {
    return null;
  }
  if (national.length === 10 && national.startsWith('0')) national = national.slice(1);
  return NATIONAL.test(national) ? `+233${national}` : null;
}

/** Last four digits only (for tracking pages and orders.track). */
export function maskPhoneLast4(e164: string): string {
  return e164.replace(/\D/g, '').slice(-4);
}
