/** One line of the bill, for a hosted page that itemises what the buyer pays. */
export interface CheckoutLine {
  description: string;
  quantity: number;
  unitPesewas: number;
}

export interface CheckoutRequest {
  /** Our reference, at most 32 characters (e.g. serviceD_WA + 16 hex). */
  clientReference: string;
  amountPesewas: number;
  description: string;
  callbackUrl: string;
  returnUrl: string;
  cancellationUrl: string;
  /** The bill behind the amount, when there is one (a sale's items and charges); its lines add up to amountPesewas. */
  lines?: readonly CheckoutLine[];
}

export interface Checkout {
  checkoutId: string;
  checkoutUrl: string;
}

/** Normalised payment state plus the gateway's own words. */
export interface PaymentStatus {
  state: 'paid' | 'pending' | 'failed';
  /** The gateway's raw status string, shown to partners as verification_status. */
  rawStatus: string;
  /** Amount the gateway confirms, when it says. */
  amountPesewas: number | null;
}

export interface CallbackNotice {
  clientReference: string;
  rawStatus: string;
}

export interface PaymentGateway {
  readonly name: string;
  createCheckout(req: CheckoutRequest): Promise<Checkout>;
  checkStatus(ref: { clientReference: string; checkoutId: string | null }): Promise<PaymentStatus>;
  /** Reads a callback body; null when it is not one of ours. A callback is a hint: callers confirm with checkStatus. */
  parseCallback(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): CallbackNotice | null;
}

/**
 * Where a refund stands at the gateway: processed is money back to the payer; failed is final;
 * reversed follows processed (the money came back to us, e.g. the payer's account refused it).
 */
export interface RefundOutcome {
  state: 'pending' | 'processed' | 'failed' | 'reversed';
  /** The gateway's own id for the refund. */
  providerReference: string | null;
  /** The gateway's raw status word. */
  rawStatus: string;
}

/**
 * A gateway that can return (part of) a confirmed payment to the payer, through the payment's own
 * channel. Separate from PaymentGateway because not every gateway can (Hubtel's checkout offers no
 * refund API); callers test with `canRefund`. A refund carries no idempotency key of ours, so a
 * caller records the refund as pending before calling and never calls twice for the same refund.
 */
export interface RefundingGateway extends PaymentGateway {
  refund(clientReference: string, amountPesewas: number): Promise<RefundOutcome>;
  /**
   * The latest refund of the payment with this reference, as the gateway has it; `unknown` when it
   * has none. What a caller asks after a timeout or a crash, instead of refunding again.
   */
  refundStatus(clientReference: string): Promise<RefundOutcome | { state: 'unknown' }>;
}

export function canRefund(gateway: PaymentGateway): gateway is RefundingGateway {
  return typeof (gateway as Partial<RefundingGateway>).refund === 'function';
}

/** Timeouts, network failures, 5xx and unreadable answers: nothing was charged or credited by us. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
}
