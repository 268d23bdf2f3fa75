/** Where money is paid out: a mobile money wallet or a Ghanaian bank account (GhIPSS bank code). */
export type PayoutDestination =
  | {
      kind: 'mobile_money';
      network: 'mtn' | 'telecel' | 'airteltigo';
      number: string;
      name: string;
    }
  | { kind: 'bank'; bankCode: string; accountNumber: string; name: string };

/** A transfer's state at the provider: paid and failed are final; reversed follows paid. */
export type TransferState = 'pending' | 'paid' | 'failed' | 'reversed';

export interface TransferOutcome {
  state: TransferState;
  /** The provider's own id for the transfer, once it has one. */
  providerReference: string | null;
  /** What the provider charged for the transfer, in pesewas, when it says. */
  feePesewas: number | null;
  /** Why it failed or was reversed, in the provider's words. */
  reason: string | null;
}

/** What the provider says of a destination before its first payout. */
export type RecipientCheck =
  /** It can pay the account: the name registered on it (null when the provider cannot tell), and its recipient for transfers. */
  | { state: 'registered'; resolvedName: string | null; recipientCode: string }
  /** It refused the account as a recipient (unknown, closed, or one it cannot pay), in its words. */
  | { state: 'refused'; reason: string };

/** One transfer to send: OUR reference (the provider's idempotency key), and the destination's recipient when the provider registered it. */
export interface TransferRequest {
  reference: string;
  amountPesewas: number;
  destination: PayoutDestination;
  reason: string;
  recipientCode?: string | null;
}

/**
 * A bulk request's answer: the provider's word per transfer it names (a reference it does not name
 * stays open, to be asked by status), or `rate_limited` (nothing was taken; send again after the wait).
 */
export type BulkAnswer =
  | { state: 'answered'; outcomes: Map<string, TransferOutcome> }
  | { state: 'rate_limited'; retryAfterMs: number | null };

/**
 * A provider that sends money out. Every transfer carries OUR reference, which the provider treats as
 * its idempotency key: after a timeout, a 5xx or a crash the caller asks `status(reference)` and never
 * sends a different reference for the same payout.
 */
export interface TransferProvider {
  readonly name: string;
  /** The registered account name of a destination when the provider can look it up, else null. */
  resolveName(destination: PayoutDestination): Promise<string | null>;
  /** Resolves a destination's registered name and registers it as a transfer recipient (no money moves). Throws AppError GATEWAY_ERROR on timeout/5xx. */
  registerRecipient(destination: PayoutDestination): Promise<RecipientCheck>;
  /** Sends (or, for a reference already received, answers the state of) one transfer. Throws AppError GATEWAY_ERROR on timeout/5xx. */
  send(input: TransferRequest): Promise<TransferOutcome>;
  /**
   * Sends many transfers in one request (at most `maxBulk`), each under its own reference, as `send` does
   * one. Throws AppError GATEWAY_ERROR on timeout/5xx (whether any was taken is then unknown). A provider
   * without it is sent one transfer at a time.
   */
  sendBulk?(items: readonly TransferRequest[]): Promise<BulkAnswer>;
  /** The most transfers `sendBulk` takes in one request. */
  readonly maxBulk?: number;
  /** The provider's view of the transfer with our reference; `unknown` when it never received it. */
  status(reference: string): Promise<TransferOutcome | { state: 'unknown' }>;
  /** A provider webhook about a transfer, verified by its signature: the reference it concerns (a hint to confirm with `status`), or undefined when the signature is bad or the event is not about a transfer. */
  transferHint(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): { reference: string } | undefined;
}
