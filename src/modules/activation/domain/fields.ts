import type { ErrorDetail } from '../../../platform/errors.ts';
import { normalizeGhanaPhone } from '../../../shared/ghana/phone.ts';

/**
 * What a partner states to get production access, validated by form only (nothing here calls a
 * registry). Each validator answers the normalised value or the problem, never throws.
 */

export const MOBILE_NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const;
export type MobileNetwork = (typeof MOBILE_NETWORKS)[number];

export type Settlement =
  | { kind: 'mobile_money'; network: MobileNetwork; number: string }
  | { kind: 'bank'; bank_code: string; account_number: string; account_name: string };

export interface ActivationFields {
  business_name: string | null;
  registration_number: string | null;
  director_ghana_card: string | null;
  settlement: Settlement | null;
  digital_address: string | null;
  contact_phone: string | null;
}

export const FIELD_NAMES = [
  'business_name',
  'registration_number',
  'director_ghana_card',
  'settlement',
  'digital_address',
  'contact_phone',
] as const;

/**
 * GhanaPostGPS region letters (the first letter of the district code): A Ashanti, B Bono / Bono East /
 * Ahafo (the former Brong-Ahafo), C Central, E Eastern, G Greater Accra, N Northern / Savannah / North
 * East, U Upper East, V Volta / Oti, W Western / Western North, X Upper West.
 */
export const GHANA_POST_REGION_LETTERS = [
  'A',
  'B',
  'C',
  'E',
  'G',
  'N',
  'U',
  'V',
  'W',
  'X',
] as const;

/** Inputs longer than this are refused before any other check (bounds the work on hostile input). */
const MAX_INPUT = 300;
// Control characters (C0, DEL, C1), NUL included, and the line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

type Result = { value: string } | { problem: ErrorDetail };
const bad = (field: string, issue: string): Result => ({ problem: { field, issue } });

function text(field: string, input: unknown, min: number, max: number): Result {
  if (typeof input !== 'string') return bad(field, 'must be a string');
  if (input.length > MAX_INPUT || CONTROL.test(input))
    return bad(field, `must be ${min} to ${max} characters without control characters`);
  const value = input.trim().replace(/\s+/g, ' ');
  if (value.length < min || value.length > max)
    return bad(field, `must be ${min} to ${max} characters without control characters`);
  return { value };
}

/** Registrar-General's Department numbers: two letters (CS company, BN business name, CG guarantee, ...) and 6 to 12 digits, e.g. CS123456789. */
export function registrationNumber(input: unknown, field = 'registration_number'): Result {
  const t = text(field, input, 8, 14);
  if ('problem' in t) return bad(field, 'must be two letters and 6 to 12 digits, e.g. CS123456789');
  const value = t.value.toUpperCase();
  return /^[A-Z]{2}\d{6,12}$/.test(value)
    ? { value }
    : bad(field, 'must be two letters and 6 to 12 digits, e.g. CS123456789');
}

/** Ghana Card personal ID number, exactly `GHA-` then 9 digits, a hyphen and the check digit. */
export function ghanaCard(input: unknown, field = 'director_ghana_card'): Result {
  if (typeof input !== 'string' || !/^GHA-\d{9}-\d$/.test(input))
    return bad(
      field,
      'must be a Ghana Card number GHA-XXXXXXXXX-X (9 digits, then the check digit)',
    );
  return { value: input };
}

/** GhanaPostGPS digital address: district code (region letter and a letter), 3 or 4 digits, 4 digits, e.g. GA-183-8164. */
export function digitalAddress(input: unknown, field = 'digital_address'): Result {
  const issue =
    'must be a GhanaPostGPS address like GA-183-8164 (a region letter and a letter, 3 or 4 digits, 4 digits)';
  if (typeof input !== 'string' || input.length > 20) return bad(field, issue);
  const value = input.trim().toUpperCase();
  const match = /^([A-Z])[A-Z]-\d{3,4}-\d{4}$/.exec(value);
  if (!match || !(GHANA_POST_REGION_LETTERS as readonly string[]).includes(match[1]!))
    return bad(field, issue);
  return { value };
}

export function phone(input: unknown, field: string, mobileOnly = false): Result {
  const issue = mobileOnly ? 'must be a Ghana mobile number' : 'must be a Ghana phone number';
  if (typeof input !== 'string' || input.length > 32) return bad(field, issue);
  const e164 = normalizeGhanaPhone(input);
  if (!e164 || (mobileOnly && !/^\+233[25]/.test(e164))) return bad(field, issue);
  return { value: e164 };
}

/** Mobile money (any network: numbers are portable, so the network is not inferred from the prefix) or a bank account. */
export function settlement(input: unknown): { value: Settlement } | { problems: ErrorDetail[] } {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return {
      problems: [{ field: 'settlement', issue: 'must be a mobile money or bank account object' }],
    };
  const s = input as Record<string, unknown>;
  if (s.kind === 'mobile_money') {
    const problems: ErrorDetail[] = [];
    if (!(MOBILE_NETWORKS as readonly unknown[]).includes(s.network))
      problems.push({
        field: 'settlement.network',
        issue: `must be one of ${MOBILE_NETWORKS.join(', ')}`,
      });
    const number = phone(s.number, 'settlement.number', true);
    if ('problem' in number) problems.push(number.problem);
    return problems.length || 'problem' in number
      ? { problems }
      : {
          value: {
            kind: 'mobile_money',
            network: s.network as MobileNetwork,
            number: number.value,
          },
        };
  }
  if (s.kind === 'bank') {
    const problems: ErrorDetail[] = [];
    const code =
      typeof s.bank_code === 'string' && /^[A-Z0-9]{2,11}$/.test(s.bank_code)
        ? s.bank_code
        : undefined;
    if (!code)
      problems.push({
        field: 'settlement.bank_code',
        issue: 'must be the bank sort code or SWIFT code (2 to 11 capital letters and digits)',
      });
    const account =
      typeof s.account_number === 'string' && /^\d{6,20}$/.test(s.account_number)
        ? s.account_number
        : undefined;
    if (!account)
      problems.push({ field: 'settlement.account_number', issue: 'must be 6 to 20 digits' });
    const name = text('settlement.account_name', s.account_name, 2, 100);
    if ('problem' in name) problems.push(name.problem);
    if (problems.length || !code || !account || 'problem' in name) return { problems };
    return {
      value: { kind: 'bank', bank_code: code, account_number: account, account_name: name.value },
    };
  }
  return { problems: [{ field: 'settlement.kind', issue: 'must be mobile_money or bank' }] };
}

/** Validates the fields present in `input` (a draft may be partial); answers them normalised, or every problem found. */
export function validateFields(input: Partial<Record<(typeof FIELD_NAMES)[number], unknown>>): {
  fields: Partial<ActivationFields>;
  problems: ErrorDetail[];
} {
  const fields: Partial<ActivationFields> = {};
  const problems: ErrorDetail[] = [];
  const take = (
    name: Exclude<(typeof FIELD_NAMES)[number], 'settlement'>,
    check: (v: unknown) => Result,
  ) => {
    if (input[name] === undefined) return;
    if (input[name] === null) {
      fields[name] = null;
      return;
    }
    const r = check(input[name]);
    if ('problem' in r) problems.push(r.problem);
    else fields[name] = r.value;
  };
  take('business_name', (v) => text('business_name', v, 2, 200));
  take('registration_number', (v) => registrationNumber(v));
  take('director_ghana_card', (v) => ghanaCard(v));
  take('digital_address', (v) => digitalAddress(v));
  take('contact_phone', (v) => phone(v, 'contact_phone'));
  if (input.settlement === null) fields.settlement = null;
  else if (input.settlement !== undefined) {
    const r = settlement(input.settlement);
    if ('problems' in r) problems.push(...r.problems);
    else fields.settlement = r.value;
  }
  return { fields, problems };
}

/** The fields a submission still lacks. */
export function missingFields(fields: ActivationFields): ErrorDetail[] {
  return FIELD_NAMES.filter((name) => fields[name] === null).map((field) => ({
    field,
    issue: 'is required to submit',
  }));
}

/** An operator's reason for a rejection, shown to the partner: 3 to 1000 characters, line breaks allowed. */
export function rejectionReason(input: unknown): Result {
  const issue = 'must be 3 to 1000 characters (line breaks allowed, no other control characters)';
  if (
    typeof input !== 'string' ||
    input.length > 1000 ||
    /[\p{Cc}\u2028\u2029]/u.test(input.replace(/\r?\n|\t/g, ' '))
  )
    return bad('reason', issue);
  const value = input.trim();
  return value.length >= 3 ? { value } : bad('reason', issue);
}
