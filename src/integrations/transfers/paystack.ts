/**
 * Paystack Transfers behind TransferProvider (paystack.com/docs/transfers, "Transfer Recipients", "Transfers",
 * "Verification"):
 * - Recipient: POST /transferrecipient { type: "mobile_money" (bank_code MTN, VOD for Telecel Cash, ATL for
 *   AirtelTigo Money; account_number the local 0XXXXXXXXX) or "ghipss" (bank_code the GhIPSS code), name,
 *   account_number, currency: "GHS" } → data { recipient_code }. Paystack answers an existing recipient for
 *   the same account, so creating one before each transfer is safe.
 * - Transfer: POST /transfer { source: "balance", amount (pesewas), recipient, reference, reason, currency }
 *   → data { transfer_code, reference, status: pending | success | failed | otp | … }. The reference is
 *   OUR reference and Paystack's idempotency key: lowercase letters, digits, `-` and `_`, 16 to 50 long.
 *   A reference Paystack already has is refused ("already used on a prior transfer"); we then answer the
 *   state of the transfer it names, so a retry never pays twice.
 * - Bulk: POST /transfer/bulk { currency, source: "balance", transfers: [{ amount, recipient, reference, reason }] },
 *   at most 100 transfers a request → data: one item per transfer queued { reference, recipient, amount,
 *   transfer_code, status }; final states come by webhook or verify, as for one transfer. A 429 (rate
 *   limited, Retry-After) takes nothing. A refused request (4xx, e.g. a reference already used) names none:
 *   each stays open and is asked by status, so a retry never pays twice.
 * - Status: GET /transfer/verify/{reference} → the transfer; 404 when Paystack never received it.
 * - Name lookup: GET /bank/resolve?account_number=&bank_code= (the wallet's network code or the GhIPSS code, as for
 *   the recipient) → data { account_name }; a 4xx (422 "Could not resolve account name") when it cannot.
 * - Verification of a new destination (`registerRecipient`): the name lookup, then the recipient, whose
 *   recipient_code is kept on the destination. A 429 (rate limited) is a passing failure, never a verdict.
 * - Webhooks transfer.success, transfer.failed, transfer.reversed, signed as every Paystack webhook.
 *
 * OTP: an integration with "Confirm transfers with OTP" on answers status "otp" and waits for
 * /transfer/finalize_transfer with a code sent to the business owner's phone, which an unattended payout run
 * cannot give. OTP must be disabled (Paystack dashboard: Settings → Preferences → Transfer confirmation);
 * until then such transfers stay pending with a reason saying so, and Paystack abandons them.
 */
import { errors } from '../../platform/errors.ts';
import { GatewayError } from '../payments/gateway.ts';
import type { Json } from '../provider-http.ts';
import {
  PaystackClient,
  type PaystackAnswer,
  type PaystackConfig,
} from '../payments/paystack-client.ts';
import type {
  BulkAnswer,
  PayoutDestination,
  RecipientCheck,
  TransferOutcome,
  TransferProvider,
  TransferRequest,
  TransferState,
} from './types.ts';

const NETWORK_CODES = { mtn: 'MTN', telecel: 'VOD', airteltigo: 'ATL' } as const;
const REFERENCE = /^[a-z0-9_-]{16,50}$/;

/**
 * Paystack references are lowercase; ours are ids `<prefix>_<ULID>` whose ULID is Crockford base32,
 * uppercase and case-insensitive: lowered on the way out, raised again when Paystack names one.
 */
export const toPaystackReference = (reference: string) => reference.toLowerCase();
export const fromPaystackReference = (reference: string) =>
  reference.replace(/_([0-9a-hjkmnp-tv-z]{26})$/, (_, ulid: string) => `_${ulid.toUpperCase()}`);

/** The recipient Paystack needs for a destination: type, bank code and account number. */
export function paystackRecipient(destination: PayoutDestination): {
  type: 'mobile_money' | 'ghipss';
  bank_code: string;
  account_number: string;
  name: string;
} {
  if (destination.kind === 'bank')
    return {
      type: 'ghipss',
      bank_code: destination.bankCode,
      account_number: destination.accountNumber,
      name: destination.name,
    };
  // Paystack takes Ghana wallet numbers in the local form 0XXXXXXXXX.
  const digits = destination.number.replace(/[\s-]/g, '');
  const local = digits.replace(/^\+?233/, '0');
  return {
    type: 'mobile_money',
    bank_code: NETWORK_CODES[destination.network],
    account_number: local,
    name: destination.name,
  };
}

export class PaystackTransfers implements TransferProvider {
  readonly name = 'paystack';
  readonly maxBulk = 100;
  readonly #client: PaystackClient;

  constructor(config: PaystackConfig) {
    this.#client = new PaystackClient(config);
  }

  async resolveName(destination: PayoutDestination): Promise<string | null> {
    const { account_number, bank_code } = paystackRecipient(destination);
    const query = new URLSearchParams({ account_number, bank_code });
    const answer = await this.#guard(() =>
      this.#client.call('resolve', 'GET', `/bank/resolve?${query}`).then(notLimited),
    );
    // Paystack could not resolve it (unknown account, or no lookup for this institution).
    const name = answer.ok ? answer.data?.account_name : null;
    return typeof name === 'string' && name ? name : null;
  }

  async registerRecipient(destination: PayoutDestination): Promise<RecipientCheck> {
    const resolvedName = await this.resolveName(destination);
    const answer = await this.#guard(() =>
      this.#client
        .call('recipient', 'POST', '/transferrecipient', {
          ...paystackRecipient(destination),
          currency: 'GHS',
        })
        .then(notLimited),
    );
    const code = answer.data?.recipient_code;
    if (!answer.ok || typeof code !== 'string' || !code)
      return {
        state: 'refused',
        reason: `Paystack: ${answer.message || `HTTP ${answer.httpStatus}`}`,
      };
    return { state: 'registered', resolvedName, recipientCode: code };
  }

  async send(input: TransferRequest): Promise<TransferOutcome> {
    const reference = checked(input);
    return this.#guard(async () => {
      const recipient = await this.#client.call('recipient', 'POST', '/transferrecipient', {
        ...paystackRecipient(input.destination),
        currency: 'GHS',
      });
      const code = recipient.data?.recipient_code;
      if (!recipient.ok || typeof code !== 'string' || !code)
        return this.#refused(
          reference,
          `recipient refused: ${recipient.message || `HTTP ${recipient.httpStatus}`}`,
        );
      const answer = await this.#client.call('transfer', 'POST', '/transfer', {
        source: 'balance',
        amount: input.amountPesewas,
        recipient: code,
        reference,
        reason: input.reason.slice(0, 100),
        currency: 'GHS',
      });
      if (answer.ok && answer.data) return outcome(answer.data, reference);
      return this.#refused(reference, answer.message || `HTTP ${answer.httpStatus}`);
    });
  }

  async sendBulk(items: readonly TransferRequest[]): Promise<BulkAnswer> {
    if (items.length === 0 || items.length > this.maxBulk)
      throw new RangeError(`a bulk transfer takes 1 to ${this.maxBulk} transfers`);
    const references = items.map(checked);
    return this.#guard(async () => {
      const transfers = [];
      for (const [i, item] of items.entries()) {
        // A verified destination has its recipient; one without is registered first (Paystack answers the existing one).
        const code =
          item.recipientCode ??
          (
            await this.#client
              .call('recipient', 'POST', '/transferrecipient', {
                ...paystackRecipient(item.destination),
                currency: 'GHS',
              })
              .then(notLimited)
          ).data?.recipient_code;
        if (typeof code !== 'string' || !code) continue;
        transfers.push({
          amount: item.amountPesewas,
          recipient: code,
          reference: references[i]!,
          reason: item.reason.slice(0, 100),
        });
      }
      const outcomes = new Map<string, TransferOutcome>();
      if (transfers.length === 0) return { state: 'answered', outcomes };
      const answer = await this.#client.call('bulk transfer', 'POST', '/transfer/bulk', {
        currency: 'GHS',
        source: 'balance',
        transfers,
      });
      if (answer.httpStatus === 429)
        return { state: 'rate_limited', retryAfterMs: answer.retryAfterMs };
      // A refused request names no transfer: each stays open and is asked by its reference.
      if (!answer.ok) return { state: 'answered', outcomes };
      for (const raw of answer.list ?? []) {
        const data = raw as Json;
        if (typeof data?.reference === 'string' && references.includes(data.reference))
          outcomes.set(fromPaystackReference(data.reference), outcome(data, data.reference));
      }
      return { state: 'answered', outcomes };
    });
  }

  /**
   * Paystack refused a call of this send. A reference it already has (a retry; "already used on a prior
   * transfer") is answered by that transfer's state, never reported failed; otherwise nothing was sent.
   */
  async #refused(reference: string, why: string): Promise<TransferOutcome> {
    const existing = await this.status(reference);
    return existing.state === 'unknown' ? failed(why) : existing;
  }

  async status(reference: string): Promise<TransferOutcome | { state: 'unknown' }> {
    const ours = toPaystackReference(reference);
    const answer = await this.#guard(() =>
      this.#client.call('transfer status', 'GET', `/transfer/verify/${encodeURIComponent(ours)}`),
    );
    if (!answer.ok && (answer.httpStatus === 404 || answer.httpStatus === 400))
      return { state: 'unknown' };
    if (!answer.ok || !answer.data)
      throw errors.gateway(
        `Paystack transfer status: HTTP ${answer.httpStatus}${answer.message ? `: ${answer.message}` : ''}`,
      );
    return this.#guardSync(() => outcome(answer.data as Json, ours));
  }

  transferHint(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): { reference: string } | undefined {
    const verified = this.#client.verifiedEvent(headers, rawBody);
    if (!verified?.event.startsWith('transfer.')) return undefined;
    const reference = verified.data.reference;
    return typeof reference === 'string' && REFERENCE.test(reference)
      ? { reference: fromPaystackReference(reference) }
      : undefined;
  }

  /** The interface promises AppError GATEWAY_ERROR for timeouts, 5xx and unreadable answers. */
  async #guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw asAppError(err);
    }
  }

  #guardSync<T>(call: () => T): T {
    try {
      return call();
    } catch (err) {
      throw asAppError(err);
    }
  }
}

/** Our reference as Paystack takes it, after checking what Paystack would refuse. */
function checked(input: TransferRequest): string {
  const reference = toPaystackReference(input.reference);
  if (!REFERENCE.test(reference))
    throw new RangeError(
      'reference must be 16 to 50 lowercase letters, digits, - or _ (Paystack transfer references)',
    );
  if (!Number.isSafeInteger(input.amountPesewas) || input.amountPesewas <= 0)
    throw new RangeError('amountPesewas must be a positive integer');
  return reference;
}

/** Rate limited (429): a passing failure to retry later, never Paystack's word on the account. */
function notLimited(answer: PaystackAnswer): PaystackAnswer {
  if (answer.httpStatus === 429)
    throw new GatewayError(
      `Paystack: rate limited (HTTP 429)${answer.message ? `: ${answer.message}` : ''}`,
    );
  return answer;
}

function asAppError(err: unknown): unknown {
  return err instanceof GatewayError ? errors.gateway(err.message) : err;
}

function failed(reason: string): TransferOutcome {
  return {
    state: 'failed',
    providerReference: null,
    feePesewas: null,
    reason: `Paystack: ${reason}`,
  };
}

/** Paystack's transfer object as our outcome; never one about another reference. */
function outcome(data: Json, reference: string): TransferOutcome {
  if (data.reference !== reference)
    throw new GatewayError('Paystack transfer: answer is for another reference');
  const raw = typeof data.status === 'string' ? data.status : '';
  const state = stateOf(raw);
  const code = data.transfer_code;
  const fee = data.fee_charged;
  const words = [data.failures, data.reason_for_failure, data.gateway_response].find(
    (w): w is string => typeof w === 'string' && w !== '',
  );
  return {
    state,
    providerReference: typeof code === 'string' && code ? code : null,
    feePesewas: Number.isSafeInteger(fee) && (fee as number) >= 0 ? (fee as number) : null,
    reason:
      raw === 'otp'
        ? 'Paystack waits for an OTP: disable transfer OTP on the Paystack integration'
        : state === 'failed' || state === 'reversed'
          ? (words ?? `Paystack: ${raw}`)
          : null,
  };
}

function stateOf(raw: string): TransferState {
  switch (raw) {
    case 'success':
      return 'paid';
    case 'reversed':
      return 'reversed';
    case 'failed':
    case 'abandoned':
    case 'blocked':
    case 'rejected':
      return 'failed';
    default:
      // pending, processing, queued, received, otp and words we do not know: not final.
      return 'pending';
  }
}
