/**
 * Paystack collections behind PaymentGateway (design: Payment gateways; real gateways are adapters selected by
 * configuration; a top-up credits only what the gateway confirms), plus refunds (RefundingGateway).
 *
 * Protocol (paystack.com/docs/api, "Transactions", "Refunds", "Webhooks"):
 * - Initialize: POST /transaction/initialize { email, amount (pesewas), currency: "GHS", reference,
 *   callback_url (where the buyer's browser returns), metadata } → data { authorization_url, access_code, reference }.
 * - Verify: GET /transaction/verify/{reference} → data { status: success | failed | abandoned | ongoing |
 *   pending | processing | queued | reversed, reference, amount (pesewas), currency, gateway_response }.
 * - Webhook: one URL per integration, set on the dashboard (not per transaction), receiving every event
 *   (charge.*, transfer.*, refund.*), signed in `x-paystack-signature`. A charge event is a hint: we verify.
 * - Refund: POST /refund { transaction (reference or id), amount (pesewas) } → data { id, status: pending |
 *   processing | processed | failed | needs-attention, amount, reversed_at }.
 * - Refunds of a transaction: GET /refund?transaction={transaction id} → data [{ id, status, amount,
 *   reversed_at }, …] (the id comes from verify), newest first. A refund the payer's bank sent back is
 *   `reversed`, with `reversed_at` set (the refund object carries that field); no webhook announces it.
 *
 * References: Paystack allows only letters, digits, `-`, `.` and `=` in a transaction reference, and ours
 * (serviceD_WA…, serviceS_SC…) contain `_`, so `_` travels as `-` (ours never contain `-`, so the mapping
 * is reversible). Paystack wants a customer email; buyers give us none, so every checkout names the
 * deployment's configured address (PAYSTACK_CUSTOMER_EMAIL).
 */
import {
  GatewayError,
  type CallbackNotice,
  type Checkout,
  type CheckoutRequest,
  type PaymentStatus,
  type RefundingGateway,
  type RefundOutcome,
} from './gateway.ts';
import { PaystackClient, type PaystackConfig } from './paystack-client.ts';

export interface PaystackGatewayConfig extends PaystackConfig {
  /** The customer email Paystack requires on every transaction. */
  customerEmail: string;
}

const OUR_REFERENCE = /^[A-Za-z0-9_]{1,100}$/;
const THEIR_REFERENCE = /^[A-Za-z0-9-]{1,100}$/;

/** Our client reference as Paystack may carry it. */
export function toPaystackReference(clientReference: string): string {
  if (!OUR_REFERENCE.test(clientReference))
    throw new RangeError('clientReference must be 1 to 100 letters, digits or _');
  return clientReference.replaceAll('_', '-');
}

function fromPaystackReference(reference: unknown): string | null {
  return typeof reference === 'string' && THEIR_REFERENCE.test(reference)
    ? reference.replaceAll('-', '_')
    : null;
}

export class PaystackGateway implements RefundingGateway {
  readonly name = 'paystack';
  readonly #client: PaystackClient;
  readonly #customerEmail: string;

  constructor(config: PaystackGatewayConfig) {
    if (!config.customerEmail)
      throw new TypeError('PaystackGatewayConfig.customerEmail is required');
    this.#client = new PaystackClient(config);
    this.#customerEmail = config.customerEmail;
  }

  async createCheckout(req: CheckoutRequest): Promise<Checkout> {
    const reference = toPaystackReference(req.clientReference);
    positive(req.amountPesewas);
    const data = await this.#client.expectData('initialize', 'POST', '/transaction/initialize', {
      email: this.#customerEmail,
      amount: req.amountPesewas,
      currency: 'GHS',
      reference,
      callback_url: req.returnUrl,
      metadata: { description: req.description, cancel_action: req.cancellationUrl },
    });
    const url = data.authorization_url;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url))
      throw new GatewayError('Paystack initialize: answer lacks authorization_url');
    if (data.reference !== undefined && data.reference !== reference)
      throw new GatewayError('Paystack initialize: answer is for another reference');
    // The access code identifies the checkout; verify goes by our reference.
    return {
      checkoutId:
        typeof data.access_code === 'string' && data.access_code ? data.access_code : reference,
      checkoutUrl: url,
    };
  }

  async checkStatus(ref: {
    clientReference: string;
    checkoutId: string | null;
  }): Promise<PaymentStatus> {
    const reference = toPaystackReference(ref.clientReference);
    const answer = await this.#client.call(
      'verify',
      'GET',
      `/transaction/verify/${encodeURIComponent(reference)}`,
    );
    // Not (yet) known to Paystack: nothing was paid.
    if (!answer.ok && (answer.httpStatus === 400 || answer.httpStatus === 404))
      return { state: 'pending', rawStatus: 'not_found', amountPesewas: null };
    const data = answer.data;
    const rawStatus = data?.status;
    if (!answer.ok || !data || typeof rawStatus !== 'string' || !rawStatus)
      throw new GatewayError(`Paystack verify: HTTP ${answer.httpStatus} without data.status`);
    if (data.reference !== reference)
      throw new GatewayError('Paystack verify: answer is for another reference');
    switch (rawStatus) {
      case 'success': {
        // A payment we would credit needs an amount in cedis' pesewas we can read exactly.
        if (
          data.currency !== 'GHS' ||
          !Number.isSafeInteger(data.amount) ||
          (data.amount as number) <= 0
        ) {
          throw new GatewayError('Paystack verify: success without a readable GHS amount');
        }
        return { state: 'paid', rawStatus, amountPesewas: data.amount as number };
      }
      case 'failed':
      case 'reversed':
        return { state: 'failed', rawStatus, amountPesewas: null };
      default:
        // abandoned, ongoing, pending, processing, queued and unknown words: not paid (yet).
        return { state: 'pending', rawStatus, amountPesewas: null };
    }
  }

  /** A signed charge event names the payment to verify; anything else (bad signature, transfers) is not ours. */
  parseCallback(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): CallbackNotice | null {
    const verified = this.#client.verifiedEvent(headers, rawBody);
    if (!verified?.event.startsWith('charge.')) return null;
    const clientReference = fromPaystackReference(verified.data.reference);
    if (!clientReference) return null;
    const status = verified.data.status;
    return {
      clientReference,
      rawStatus: typeof status === 'string' && status ? status : verified.event,
    };
  }

  async refund(clientReference: string, amountPesewas: number): Promise<RefundOutcome> {
    const transaction = toPaystackReference(clientReference);
    positive(amountPesewas);
    const data = await this.#client.expectData('refund', 'POST', '/refund', {
      transaction,
      amount: amountPesewas,
      currency: 'GHS',
    });
    return refundOutcome(data);
  }

  async refundStatus(clientReference: string): Promise<RefundOutcome | { state: 'unknown' }> {
    const reference = toPaystackReference(clientReference);
    const verified = await this.#client.call(
      'verify',
      'GET',
      `/transaction/verify/${encodeURIComponent(reference)}`,
    );
    const id = verified.data?.id;
    if (!verified.ok || (typeof id !== 'number' && typeof id !== 'string'))
      throw new GatewayError(`Paystack verify: HTTP ${verified.httpStatus} without data.id`);
    const listed = await this.#client.call(
      'refunds',
      'GET',
      `/refund?transaction=${encodeURIComponent(String(id))}`,
    );
    const refunds = listed.list;
    if (!listed.ok || !refunds)
      throw new GatewayError(`Paystack refunds: HTTP ${listed.httpStatus} without a list`);
    const latest = refunds.find(
      (r): r is Record<string, unknown> => typeof r === 'object' && r !== null,
    );
    return latest ? refundOutcome(latest) : { state: 'unknown' };
  }
}

function refundOutcome(data: Record<string, unknown>): RefundOutcome {
  const rawStatus = typeof data.status === 'string' ? data.status : 'unknown';
  const id = data.id;
  const reversed =
    rawStatus === 'reversed' || (typeof data.reversed_at === 'string' && data.reversed_at !== '');
  return {
    state: reversed
      ? 'reversed'
      : rawStatus === 'processed'
        ? 'processed'
        : rawStatus === 'failed'
          ? 'failed'
          : 'pending',
    providerReference: typeof id === 'number' || typeof id === 'string' ? String(id) : null,
    rawStatus,
  };
}

function positive(amountPesewas: number): void {
  if (!Number.isSafeInteger(amountPesewas) || amountPesewas <= 0)
    throw new RangeError('amountPesewas must be a positive integer');
}
