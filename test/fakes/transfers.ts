import type { PayoutDestination, TransferOutcome, TransferProvider, TransferState } from '../../src/integrations/transfers/types.ts';
import { errors } from '../../src/platform/errors.ts';

/** How the fake answers the next send. */
export type SendKnob =
  /** Accepted and paid at once. */
  | 'paid'
  /** Accepted, still pending (settle it with `settle`). */
  | 'pending'
  /** Refused: the transfer failed. */
  | 'fail'
  /** Accepted and paid, but the answer never reaches us (a timeout, or our process dying after the call). */
  | 'timeout_after_accept'
  /** A 5xx before the provider recorded anything. */
  | 'error_before'
  /** The call never returns, the transfer recorded (or not): our process dies waiting (a kill -9 mid-call). */
  | 'hang_after_accept'
  | 'hang_before';

interface Transfer {
  amountPesewas: number;
  destination: PayoutDestination;
  state: TransferState;
  /** How many send calls named this reference (the fake dedupes like a real provider). */
  calls: number;
}

/**
 * The transfer provider's fake, in process: it keeps transfers by OUR reference (its idempotency
 * key), answers a repeated reference with the transfer it already has, and has knobs for each way a
 * real provider misbehaves.
 */
export class FakeTransfers implements TransferProvider {
  readonly name = 'fake';
  readonly transfers = new Map<string, Transfer>();
  /** Knobs consumed one per send call; when empty, sends are paid. */
  readonly knobs: SendKnob[] = [];
  /** Names the lookup answers, by wallet or account number; absent numbers cannot be looked up (null). */
  readonly registeredNames = new Map<string, string>();
  feePesewas = 100;
  /** A webhook signature the fake accepts. */
  readonly secret = 'fake-transfer-secret';

  async resolveName(d: PayoutDestination): Promise<string | null> {
    return this.registeredNames.get(d.kind === 'mobile_money' ? d.number : d.accountNumber) ?? null;
  }

  async send(input: { reference: string; amountPesewas: number; destination: PayoutDestination; reason: string }): Promise<TransferOutcome> {
    const existing = this.transfers.get(input.reference);
    if (existing) {
      existing.calls++;
      return this.outcome(existing);
    }
    const knob = this.knobs.shift() ?? 'paid';
    if (knob === 'error_before') throw errors.gateway('transfer provider answered 502');
    if (knob === 'hang_before') return new Promise(() => {});
    const state: TransferState = knob === 'fail' ? 'failed' : knob === 'pending' ? 'pending' : 'paid';
    const transfer: Transfer = { amountPesewas: input.amountPesewas, destination: input.destination, state, calls: 1 };
    this.transfers.set(input.reference, transfer);
    if (knob === 'timeout_after_accept') throw errors.gateway('transfer provider timed out');
    if (knob === 'hang_after_accept') return new Promise(() => {});
    return this.outcome(transfer);
  }

  async status(reference: string): Promise<TransferOutcome | { state: 'unknown' }> {
    const t = this.transfers.get(reference);
    return t ? this.outcome(t) : { state: 'unknown' };
  }

  transferHint(rawBody: string, headers: Record<string, string | string[] | undefined>): { reference: string } | undefined {
    if (headers['x-fake-signature'] !== this.secret) return undefined;
    try {
      const body = JSON.parse(rawBody) as { reference?: unknown };
      return typeof body.reference === 'string' ? { reference: body.reference } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The provider settles a pending transfer, or reverses a paid one. */
  settle(reference: string, state: TransferState): void {
    this.transfers.get(reference)!.state = state;
  }

  /** Money that really left: the sum of transfers paid (each reference once). */
  paidTotal(): number {
    return [...this.transfers.values()].filter((t) => t.state === 'paid').reduce((n, t) => n + t.amountPesewas, 0);
  }

  private outcome(t: Transfer): TransferOutcome {
    return { state: t.state, providerReference: `fk_${t.amountPesewas}`, feePesewas: t.state === 'paid' || t.state === 'reversed' ? this.feePesewas : null, reason: t.state === 'failed' ? 'account closed' : t.state === 'reversed' ? 'reversed by the bank' : null };
  }
}
