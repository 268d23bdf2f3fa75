import type { PayoutDestination, RecipientCheck } from '../../../integrations/transfers/types.ts';
import type { ErrorDetail } from '../../../platform/errors.ts';
import { normalizeGhanaPhone } from '../../../shared/ghana/index.ts';

export const NETWORKS = ['mtn', 'telecel', 'airteltigo'] as const;
/** Mobile ranges only (fixed lines 3X cannot hold a wallet). Numbers port between networks, so the prefix does not fix the network. */
const MOBILE = /^\+233(?:2[0345678]|5[0345679])\d{7}$/;
const BANK_CODE = /^[A-Z0-9]{3,10}$/;
const ACCOUNT_NUMBER = /^\d{6,20}$/;

export interface DestinationInput {
  kind?: unknown;
  network?: unknown;
  number?: unknown;
  bank_code?: unknown;
  account_number?: unknown;
  name?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * Checks a destination as typed and returns it normalised (a wallet number as 0XXXXXXXXX, the form
 * Ghanaian providers use), or the problems found, one per field.
 */
export function parseDestination(
  input: DestinationInput,
): { destination: PayoutDestination } | { problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const name = text(input.name).replace(/\s+/g, ' ');
  if (name.length < 2 || name.length > 100)
    problems.push({ field: 'name', issue: 'must be the registered name, 2 to 100 characters' });
  if (input.kind === 'mobile_money') {
    const network = NETWORKS.find((n) => n === input.network);
    if (!network)
      problems.push({ field: 'network', issue: `must be one of ${NETWORKS.join(', ')}` });
    const e164 = normalizeGhanaPhone(text(input.number));
    if (!e164 || !MOBILE.test(e164))
      problems.push({ field: 'number', issue: 'must be a Ghana mobile number, e.g. 024 123 4567' });
    if (problems.length > 0 || !network || !e164) return { problems };
    return { destination: { kind: 'mobile_money', network, number: `0${e164.slice(4)}`, name } };
  }
  if (input.kind === 'bank') {
    const bankCode = text(input.bank_code).toUpperCase();
    const accountNumber = text(input.account_number).replace(/[\s-]/g, '');
    if (!BANK_CODE.test(bankCode))
      problems.push({
        field: 'bank_code',
        issue: 'must be a GhIPSS bank code (3 to 10 letters or digits)',
      });
    if (!ACCOUNT_NUMBER.test(accountNumber))
      problems.push({ field: 'account_number', issue: 'must be 6 to 20 digits' });
    if (problems.length > 0) return { problems };
    return { destination: { kind: 'bank', bankCode, accountNumber, name } };
  }
  return { problems: [{ field: 'kind', issue: 'must be mobile_money or bank' }, ...problems] };
}

/** Words that say nothing about who holds an account: titles and forms of a business. */
const FILLER = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'rev',
  'and',
  'the',
  'co',
  'company',
  'ltd',
  'limited',
  'ent',
  'enterprise',
  'enterprises',
]);

/** A name's words as compared: accents dropped, case folded, punctuation as spaces, initials and fillers left out. */
export function nameWords(name: string): Set<string> {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ');
  return new Set(plain.split(' ').filter((w) => w.length > 1 && !FILLER.has(w)));
}

/**
 * The share of two names' words they must have in common to match (Dice: 2 × shared ÷ (words of one +
 * words of the other)). 0.75 lets one name miss a middle name or add a company form ("Kofi Boateng" and
 * "KOFI ASANTE BOATENG": 0.8), but not share only a family name ("Kofi Boateng" and "Ama Boateng": 0.5)
 * or give only a first name ("Kofi" and "Kofi Boateng": 0.67).
 */
export const NAME_MATCH_THRESHOLD = 0.75;

/** Whether a provider's registered name matches the name given, word order, case, accents and punctuation aside. */
export function namesMatch(given: string, registered: string): boolean {
  const a = nameWords(given);
  const b = nameWords(registered);
  if (a.size === 0 || b.size === 0) return false;
  const shared = [...a].filter((w) => b.has(w)).length;
  return (2 * shared) / (a.size + b.size) >= NAME_MATCH_THRESHOLD;
}

/** The provider's check of a destination, judged: verified only when it can pay the account and its registered name matches the one given. */
export interface Verdict {
  verification: 'verified' | 'needs_review';
  resolvedName: string | null;
  recipientCode: string | null;
  /** Why an operator must look at it, in a sentence; null when verified. */
  reviewReason: string | null;
}

export function verdictOf(givenName: string, check: RecipientCheck): Verdict {
  if (check.state === 'refused')
    return {
      verification: 'needs_review',
      resolvedName: null,
      recipientCode: null,
      reviewReason: `The provider refused the account: ${check.reason}`,
    };
  const { resolvedName, recipientCode } = check;
  const review = (reviewReason: string): Verdict => ({
    verification: 'needs_review',
    resolvedName,
    recipientCode,
    reviewReason,
  });
  if (resolvedName === null)
    return review('The provider could not resolve the name on the account.');
  if (!namesMatch(givenName, resolvedName))
    return review(`The provider has the account registered to ${resolvedName}, not ${givenName}.`);
  return { verification: 'verified', resolvedName, recipientCode, reviewReason: null };
}

/** A payee is a vendor, a partner or a courier (paid their earnings to mobile money); its key names the kind. */
export type PayeeKind = 'vendor' | 'partner' | 'courier';
export const PAYEE_KINDS: readonly PayeeKind[] = ['vendor', 'partner', 'courier'];
export const payeeKey = (kind: PayeeKind, id: string) => `${kind}:${id}`;

/** A destination as stored (one row of payout_destinations or of a change) as the provider takes it. */
export const toDestination = (d: {
  kind: 'mobile_money' | 'bank';
  network: string | null;
  number: string;
  bank_code: string | null;
  name: string;
}): PayoutDestination =>
  d.kind === 'mobile_money'
    ? {
        kind: 'mobile_money',
        network: d.network as (typeof NETWORKS)[number],
        number: d.number,
        name: d.name,
      }
    : { kind: 'bank', bankCode: d.bank_code!, accountNumber: d.number, name: d.name };
