import type { Db } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type {
  CallbackNotice,
  Checkout,
  CheckoutLine,
  CheckoutRequest,
  PaymentStatus,
  RefundingGateway,
  RefundOutcome,
} from './gateway.ts';

export interface SandboxCheckoutRow {
  id: string;
  client_reference: string;
  amount_pesewas: number;
  description: string;
  callback_url: string;
  return_url: string;
  cancellation_url: string;
  status: 'Unpaid' | 'Paid' | 'Declined';
  created_at: Date;
  /** The bill the page shows, when the payment has one. */
  lines: CheckoutLine[] | null;
}

const COLS =
  'id, client_reference, amount_pesewas, description, callback_url, return_url, cancellation_url, status, created_at, lines';

/**
 * The built-in gateway used when no real one is configured (design: Payment gateways): a hosted checkout page with Pay
 * and Decline, a status check and a callback, like a real gateway. Its checkouts live in the
 * database so every instance and every restart sees them. An unpaid checkout expires after
 * `expiryMs` and then reports the raw status `Expired`. It refunds a paid checkout at once (whole,
 * once: a second refund answers the first), moving no money: staging refunds never reach real rails.
 */
export class SandboxGateway implements RefundingGateway {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Db,
    private readonly publicBaseUrl: string,
    private readonly expiryMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async createCheckout(req: CheckoutRequest): Promise<Checkout> {
    const billed = req.lines?.reduce((sum, l) => sum + l.quantity * l.unitPesewas, 0);
    if (billed !== undefined && billed !== req.amountPesewas)
      throw new RangeError(
        `the checkout's lines add up to ${billed} pesewas, not its amount ${req.amountPesewas}`,
      );
    const id = newId('chk');
    await this.db.query(
      `insert into sandbox_checkouts (id, client_reference, amount_pesewas, description, callback_url, return_url, cancellation_url, lines, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [
        id,
        req.clientReference,
        req.amountPesewas,
        req.description,
        req.callbackUrl,
        req.returnUrl,
        req.cancellationUrl,
        req.lines ? JSON.stringify(req.lines) : null,
        new Date(this.clock()),
      ],
    );
    return { checkoutId: id, checkoutUrl: `${this.publicBaseUrl}/sandbox/checkout/${id}` };
  }

  async checkStatus(ref: { clientReference: string }): Promise<PaymentStatus> {
    const rows = await this.db.query<SandboxCheckoutRow>(
      `select ${COLS} from sandbox_checkouts where client_reference = $1`,
      [ref.clientReference],
    );
    const row = rows[0];
    if (!row) return { state: 'pending', rawStatus: 'NotFound', amountPesewas: null };
    const raw = this.rawStatus(row);
    return {
      state: raw === 'Paid' ? 'paid' : raw === 'Unpaid' ? 'pending' : 'failed',
      rawStatus: raw,
      amountPesewas: raw === 'Paid' ? row.amount_pesewas : null,
    };
  }

  async refund(clientReference: string, amountPesewas: number): Promise<RefundOutcome> {
    if (!Number.isSafeInteger(amountPesewas) || amountPesewas <= 0)
      throw new RangeError('amountPesewas must be a positive integer');
    await this.db.query(
      `update sandbox_checkouts set refunded_at = coalesce(refunded_at, $2) where client_reference = $1 and status = 'Paid'`,
      [clientReference, new Date(this.clock())],
    );
    const status = await this.refundStatus(clientReference);
    return status.state === 'unknown'
      ? { state: 'failed', providerReference: null, rawStatus: 'NotPaid' }
      : status;
  }

  async refundStatus(clientReference: string): Promise<RefundOutcome | { state: 'unknown' }> {
    const rows = await this.db.query<{ id: string }>(
      'select id from sandbox_checkouts where client_reference = $1 and refunded_at is not null',
      [clientReference],
    );
    return rows[0]
      ? { state: 'processed', providerReference: rows[0].id, rawStatus: 'Refunded' }
      : { state: 'unknown' };
  }

  parseCallback(
    _headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): CallbackNotice | null {
    try {
      const body = JSON.parse(rawBody.toString('utf8')) as {
        client_reference?: unknown;
        status?: unknown;
      };
      if (typeof body.client_reference !== 'string' || typeof body.status !== 'string') return null;
      return { clientReference: body.client_reference, rawStatus: body.status };
    } catch {
      return null;
    }
  }

  // The hosted page's side of the sandbox.

  async find(id: string): Promise<SandboxCheckoutRow | undefined> {
    return (
      await this.db.query<SandboxCheckoutRow>(
        `select ${COLS} from sandbox_checkouts where id = $1`,
        [id],
      )
    )[0];
  }

  rawStatus(row: SandboxCheckoutRow): string {
    if (row.status === 'Unpaid' && this.clock() - row.created_at.getTime() > this.expiryMs)
      return 'Expired';
    return row.status;
  }

  /** The buyer's decision; only an open (unpaid, unexpired) checkout can take one. */
  async decide(id: string, decision: 'Paid' | 'Declined'): Promise<SandboxCheckoutRow | undefined> {
    const expiredBefore = new Date(this.clock() - this.expiryMs);
    const rows = await this.db.query<SandboxCheckoutRow>(
      `update sandbox_checkouts set status = $2, updated_at = now() where id = $1 and status = 'Unpaid' and created_at >= $3 returning ${COLS}`,
      [id, decision, expiredBefore],
    );
    return rows[0];
  }

  /** Tells the merchant, as a real gateway would; a lost callback is made up for by verify. */
  async sendCallback(row: SandboxCheckoutRow): Promise<void> {
    await fetch(row.callback_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_reference: row.client_reference,
        checkout_id: row.id,
        status: row.status,
        amount_pesewas: row.amount_pesewas,
      }),
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined);
  }
}
