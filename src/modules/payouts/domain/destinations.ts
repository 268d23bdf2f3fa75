import type { PayoutDestination } from '../../../integrations/transfers/types.ts';
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
export function parseDestination(input: DestinationInput): { destination: PayoutDestination } | { problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const name = text(input.name).replace(/\s+/g, ' ');
  if (name.length < 2 || name.length > 100) problems.push({ field: 'name', issue: 'must be the registered name, 2 to 100 characters' });
  if (input.kind === 'mobile_money') {
    const network = NETWORKS.find((n) => n === input.network);
    if (!network) problems.push({ field: 'network', issue: `must be one of ${NETWORKS.join(', ')}` });
    const e164 = normalizeGhanaPhone(text(input.number));
    if (!e164 || !MOBILE.test(e164)) problems.push({ field: 'number', issue: 'must be a Ghana mobile number, e.g. 024 123 4567' });
    if (problems.length > 0 || !network || !e164) return { problems };
    return { destination: { kind: 'mobile_money', network, number: `0${e164.slice(4)}`, name } };
  }
  if (input.kind === 'bank') {
    const bankCode = text(input.bank_code).toUpperCase();
    const accountNumber = text(input.account_number).replace(/[\s-]/g, '');
    if (!BANK_CODE.test(bankCode)) problems.push({ field: 'bank_code', issue: 'must be a GhIPSS bank code (3 to 10 letters or digits)' });
    if (!ACCOUNT_NUMBER.test(accountNumber)) problems.push({ field: 'account_number', issue: 'must be 6 to 20 digits' });
    if (problems.length > 0) return { problems };
    return { destination: { kind: 'bank', bankCode, accountNumber, name } };
  }
  return { problems: [{ field: 'kind', issue: 'must be mobile_money or bank' }, ...problems] };
}

/** Whether a provider's registered name matches the name given (case, spacing and word order aside). */
export function namesMatch(given: string, registered: string): boolean {
  const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]/g, ' ').split(/\s+/).filter(Boolean).sort().join(' ');
  return words(given) === words(registered);
}

/** A payee is a vendor or a partner; its key names the kind. */
export type PayeeKind = 'vendor' | 'partner';
export const payeeKey = (kind: PayeeKind, id: string) => `${kind}:${id}`;

/** A destination as stored (one row of payout_destinations or of a change) as the provider takes it. */
export const toDestination = (d: { kind: 'mobile_money' | 'bank'; network: string | null; number: string; bank_code: string | null; name: string }): PayoutDestination =>
  d.kind === 'mobile_money'
    ? { kind: 'mobile_money', network: d.network as (typeof NETWORKS)[number], number: d.number, name: d.name }
    : { kind: 'bank', bankCode: d.bank_code!, accountNumber: d.number, name: d.name };
