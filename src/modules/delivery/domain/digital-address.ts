/**
 * GhanaPostGPS digital addresses (e.g. GA-183-8164): two letters (region, then district), a 3 or
 * 4 digit area code and a 4 digit unique code. We parse them strictly and label them with our own
 * regions and zones from the table below; they never price an order (coordinates do).
 */

export interface DigitalAddress {
  /** Upper case, as stored and shown: `GA-183-8164`. */
  value: string;
  /** The two letters: region then district. */
  prefix: string;
  /** Our region name for the first letter (the regions before the 2019 split). */
  region: string;
  /** Our zone for the two letters, when our table knows the district. */
  zone: string | null;
}

// The first letter names a region as GhanaPostGPS drew them (ten regions, before the 2019 split):
// the newer regions carved from B, N, V and W keep their parent's letter, so we name the parent.
const REGION_OF_LETTER: Readonly<Record<string, string>> = {
  A: 'Ashanti',
  B: 'Bono',
  C: 'Central',
  E: 'Eastern',
  G: 'Greater Accra',
  N: 'Northern',
  U: 'Upper East',
  V: 'Volta',
  W: 'Western',
  X: 'Upper West',
};

/**
 * District prefixes we map to our zones (the zones of locations.list). Ours to keep: a prefix not
 * listed still parses and is labelled with its region only. Add rows as couriers confirm them.
 */
export const DIGITAL_ADDRESS_ZONES: Readonly<Record<string, string>> = {
  GA: 'Accra Metro',
  GT: 'Tema Metro',
  AK: 'Kumasi Metro',
};

const FORM = /^([A-Z])([A-Z])-(\d{3,4})-(\d{4})$/;

/** Upper-cases the letters and checks the form and the region letter; null when it is not one. */
export function parseDigitalAddress(raw: string): DigitalAddress | null {
  // Strict: no trimming or inner spaces, only the case is forgiven.
  if (raw.length > 12) return null;
  const value = raw.toUpperCase();
  const m = FORM.exec(value);
  if (!m) return null;
  const region = REGION_OF_LETTER[m[1]!];
  if (!region) return null;
  const prefix = `${m[1]}${m[2]}`;
  return { value, prefix, region, zone: DIGITAL_ADDRESS_ZONES[prefix] ?? null };
}

/** The one sentence a partner reads when an address is refused. */
export const DIGITAL_ADDRESS_ISSUE =
  'must be a GhanaPostGPS digital address: two letters (a region letter A, B, C, E, G, N, U, V, W or X, then the district), a 3 or 4 digit area code and a 4 digit number, joined by hyphens, e.g. GA-183-8164';

/** Where an address sits in our areas, in words: "Accra Metro, Greater Accra" or the region alone. */
export function digitalAddressArea(d: DigitalAddress): string {
  return d.zone ? `${d.zone}, ${d.region}` : d.region;
}
