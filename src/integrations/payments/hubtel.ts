/**
 * Hubtel Online Checkout adapter behind PaymentGateway (design: Payment gateways; real gateways are adapters selected by
 * configuration; Wallet (design): a top-up credits only what the gateway confirms).
 *
 * Protocol as Hubtel publishes it (developers.hubtel.com / businessdocs-developers.hubtel.com
 * "API Reference - Online Checkout", hubtel.readme.io "checkout-callback"):
 * - Initiate: POST https://payproxyapi.hubtel.com/items/initiate, HTTP Basic (API ID : API key), JSON
 *   { totalAmount (cedis, at most 2 decimals), description, callbackUrl, returnUrl, cancellationUrl,
 *   merchantAccountNumber (the POS Sales ID), clientReference (non-empty, at most 32 characters) }.
 *   Answer { responseCode: "0000", status: "Success", data: { checkoutUrl, checkoutId, clientReference,
 *   message, checkoutDirectUrl } }.
 * - Status check: GET https://api-txnstatus.hubtel.com/transactions/{POS Sales ID}/status
 *   ?clientReference=..., Basic auth. Answer { message, responseCode: "0000", data: { date, status
 *   ("Paid" | "Unpaid" | "Refunded"), transactionId, externalTransactionId, paymentMethod,
 *   clientReference, currencyCode, amount, charges, amountAfterCharges, isFulfilled } }. Hubtel makes
 *   this check mandatory when no callback arrived within 5 minutes. Only whitelisted source IPs (at
 *   most 4 per service, arranged with the Hubtel Retail Systems Engineer) reach it; others get 403 or
 *   a timeout, which we report as GatewayError like any other failure.
 * - Callback: POST of { ResponseCode, Status, Data: { CheckoutId, SalesInvoiceId, ClientReference,
 *   Status, Amount, CustomerPhoneNumber, PaymentDetails, Description } } to callbackUrl.
 *
 * Not yet verified against the live service: the body and HTTP status of Hubtel's error answers
 * (bad credentials, validation, unknown clientReference); whether a declined or expired checkout
 * reports anything other than "Unpaid"; whether `amount` ever includes customer-borne charges; the
 * callback body of a failed payment (only the success sample is published); and whether the status
 * check accepts the checkoutId (it is not documented, so we query by clientReference only).
 */
import { ghsToPesewas, pesewasToGhs } from '../../platform/money.ts';
import { injectTraceHeaders, inSpan, recordHttpStatus, SpanKind } from '../../platform/tracing.ts';
import {
  GatewayError,
  type CallbackNotice,
  type Checkout,
  type CheckoutRequest,
  type PaymentGateway,
  type PaymentStatus,
} from './gateway.ts';
import {
  asObject,
  hostOf,
  type Json,
  parseObject,
  providerWords,
  requestProvider,
} from '../provider-http.ts';

export interface HubtelConfig {
  apiId: string;
  apiKey: string;
  /** Hubtel's "merchantAccountNumber", which its documents also call the POS Sales ID. */
  merchantAccountNumber: string;
  /** Production: https://payproxyapi.hubtel.com */
  checkoutBaseUrl: string;
  /** Production: https://api-txnstatus.hubtel.com */
  statusBaseUrl: string;
  timeoutMs: number;
}

export const HUBTEL_PRODUCTION_URLS = {
  checkoutBaseUrl: 'https://payproxyapi.hubtel.com',
  statusBaseUrl: 'https://api-txnstatus.hubtel.com',
} as const;

/** Hubtel's documented limit on clientReference. */
export const HUBTEL_MAX_CLIENT_REFERENCE = 32;

export class HubtelGateway implements PaymentGateway {
  readonly name = 'hubtel';
  readonly #config: HubtelConfig;
  readonly #authorization: string;
  /** Strings that must never appear in an error message. */
  readonly #secrets: string[];

  constructor(config: HubtelConfig) {
    for (const key of [
      'apiId',
      'apiKey',
      'merchantAccountNumber',
      'checkoutBaseUrl',
      'statusBaseUrl',
    ] as const) {
      if (!config[key]) throw new TypeError(`HubtelConfig.${key} is required`);
    }
    if (!Number.isFinite(config.timeoutMs) || config.timeoutMs <= 0)
      throw new TypeError('HubtelConfig.timeoutMs must be positive');
    const token = Buffer.from(`${config.apiId}:${config.apiKey}`).toString('base64');
    this.#config = {
      ...config,
      checkoutBaseUrl: config.checkoutBaseUrl.replace(/\/+$/, ''),
      statusBaseUrl: config.statusBaseUrl.replace(/\/+$/, ''),
    };
    this.#authorization = `Basic ${token}`;
    this.#secrets = [config.apiKey, token, config.apiId].filter((s) => s.length >= 4);
  }

  async createCheckout(req: CheckoutRequest): Promise<Checkout> {
    // Caller bugs, refused before anything is sent (Hubtel would refuse them too).
    if (!req.clientReference || req.clientReference.length > HUBTEL_MAX_CLIENT_REFERENCE) {
      throw new RangeError(
        `clientReference must be 1 to ${HUBTEL_MAX_CLIENT_REFERENCE} characters`,
      );
    }
    if (!Number.isSafeInteger(req.amountPesewas) || req.amountPesewas <= 0) {
      throw new RangeError('amountPesewas must be a positive integer');
    }
    const body = {
      // Exact: 1999 pesewas serialises as 19.99, never 19.990000000000002.
      totalAmount: pesewasToGhs(req.amountPesewas),
      description: req.description,
      callbackUrl: req.callbackUrl,
      returnUrl: req.returnUrl,
      cancellationUrl: req.cancellationUrl,
      merchantAccountNumber: this.#config.merchantAccountNumber,
      clientReference: req.clientReference,
    };
    const answer = await this.#call(
      'initiate',
      `${this.#config.checkoutBaseUrl}/items/initiate`,
      JSON.stringify(body),
    );
    const data = asObject(answer.data);
    const checkoutId = data?.checkoutId;
    const checkoutUrl = data?.checkoutUrl;
    if (
      typeof checkoutId !== 'string' ||
      !checkoutId ||
      typeof checkoutUrl !== 'string' ||
      !isHttpUrl(checkoutUrl)
    ) {
      throw new GatewayError('Hubtel initiate: answer lacks checkoutId or checkoutUrl');
    }
    if (typeof data?.clientReference === 'string' && data.clientReference !== req.clientReference) {
      throw new GatewayError('Hubtel initiate: answer is for another clientReference');
    }
    return { checkoutId, checkoutUrl };
  }

  /** Queries by clientReference, which Hubtel recommends; checkoutId is not a documented parameter. */
  async checkStatus(ref: {
    clientReference: string;
    checkoutId: string | null;
  }): Promise<PaymentStatus> {
    const account = encodeURIComponent(this.#config.merchantAccountNumber);
    const url = `${this.#config.statusBaseUrl}/transactions/${account}/status?clientReference=${encodeURIComponent(ref.clientReference)}`;
    const data = asObject((await this.#call('status', url, null)).data);
    const rawStatus = data?.status;
    if (!data || typeof rawStatus !== 'string' || !rawStatus)
      throw new GatewayError('Hubtel status: answer lacks data.status');
    // Never let an answer about another transaction credit this one.
    if (typeof data.clientReference === 'string' && data.clientReference !== ref.clientReference) {
      throw new GatewayError('Hubtel status: answer is for another clientReference');
    }
    switch (rawStatus.toLowerCase()) {
      case 'paid': {
        const amountPesewas = typeof data.amount === 'number' ? ghsToPesewas(data.amount) : null;
        // A payment we would credit needs an amount we can read exactly; otherwise ask again later.
        if (amountPesewas === null || amountPesewas <= 0)
          throw new GatewayError('Hubtel status: Paid without a readable amount');
        return { state: 'paid', rawStatus, amountPesewas };
      }
      case 'unpaid':
        // Hubtel reports both "not paid yet" and "declined/abandoned" as Unpaid; the wallet design keeps both pending.
        return { state: 'pending', rawStatus, amountPesewas: null };
      case 'refunded':
        // The money went back to the payer, so it must never be credited; and a refund is final, so
        // polling again cannot turn it into a payment. The wallet still reports it as pending with
        // verification_status "Refunded" (the wallet design has no fourth state).
        return { state: 'failed', rawStatus, amountPesewas: null };
      default:
        // Unknown words are kept verbatim for verification_status and treated as not paid.
        return { state: 'pending', rawStatus, amountPesewas: null };
    }
  }

  /**
   * Hubtel does not sign callbacks (no signature header or shared secret appears in its checkout
   * documentation), so this only parses: the body is a hint and callers must confirm with
   * checkStatus before crediting anything. Hubtel documents no list of callback source IPs; some
   * integrators report Hubtel support suggesting to whitelist its callback IPs on request, which would
   * be a deployment (firewall) matter, not something this adapter can check.
   */
  parseCallback(
    _headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): CallbackNotice | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const body = asObject(parsed);
    const data = asObject(body?.Data);
    const clientReference = data?.ClientReference;
    if (!body || !data || typeof clientReference !== 'string' || !clientReference) return null;
    // We never issue longer references, so a longer one cannot be ours.
    if (clientReference.length > HUBTEL_MAX_CLIENT_REFERENCE) return null;
    const rawStatus = [data.Status, body.Status, body.ResponseCode].find(
      (s): s is string => typeof s === 'string' && s !== '',
    );
    return { clientReference, rawStatus: rawStatus ?? 'unknown' };
  }

  /**
   * One request; any answer other than a JSON object with responseCode "0000" is a GatewayError.
   * With tracing on it is a client span of the caller's trace, and carries its `traceparent`.
   */
  async #call(operation: string, url: string, body: string | null): Promise<Json> {
    const method = body === null ? 'GET' : 'POST';
    const attributes = { 'http.request.method': method, 'server.address': hostOf(url) };
    const { status, text } = await inSpan(
      `hubtel ${operation}`,
      { kind: SpanKind.CLIENT, attributes },
      async (span) => {
        const headers: Record<string, string> = {
          Authorization: this.#authorization,
          Accept: 'application/json',
        };
        if (body !== null) headers['Content-Type'] = 'application/json';
        injectTraceHeaders(headers);
        const answer = await requestProvider(
          url,
          { method, headers, body, timeoutMs: this.#config.timeoutMs },
          (why) => new GatewayError(`Hubtel ${operation}: ${why}`),
        );
        recordHttpStatus(span, answer.status, 400);
        return answer;
      },
    );
    const json = parseObject(text);
    const code = typeof json?.responseCode === 'string' ? json.responseCode : null;
    if (status < 200 || status > 299) {
      throw new GatewayError(
        `Hubtel ${operation}: HTTP ${status}${code ? ` responseCode ${code}` : ''}${this.#message(json)}`,
      );
    }
    if (!json) throw new GatewayError(`Hubtel ${operation}: unreadable answer (HTTP ${status})`);
    if (code !== '0000')
      throw new GatewayError(
        `Hubtel ${operation}: responseCode ${code ?? 'missing'}${this.#message(json)}`,
      );
    return json;
  }

  /** Hubtel's own words, shortened and scrubbed of anything that looks like our credentials. */
  #message(json: Json | null): string {
    const words = providerWords(json?.message ?? json?.Message, this.#secrets);
    return words && `: ${words}`;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
