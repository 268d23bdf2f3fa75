import type {
  PayoutDestination,
  RecipientCheck,
  TransferOutcome,
  TransferProvider,
  TransferState,
} from '../../src/integrations/transfers/types.ts';
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
  /** Names the lookup answers, by wallet or account number (a mismatch to test); other known numbers answer the name given. */
  readonly registeredNames = new Map<string, string>();
  /** Numbers the provider does not know: no name, and refused as a recipient. */
  readonly unknownAccounts = new Set<string>();
  /** Recipients registered, by wallet or account number. */
  readonly recipients = new Map<string, string>();
  /** While true, registering a recipient fails as a provider that is down does (GATEWAY_ERROR). */
  recipientsDown = false;
  /** Every send call as it reaches the provider: when, for which reference, to where. */
  readonly sends: Array<{ at: number; reference: string; destination: PayoutDestination }> = [];
  /** How long a send takes to reach the provider (the network), before it is recorded and handled. */
  arrivalDelayMs = 0;
  /** Called as each send reaches the provider, before it is handled (a test checks what is true at that instant). */
  onArrival:
    | ((input: { reference: string; destination: PayoutDestination }) => Promise<void>)
    | undefined;
  feePesewas = 100;
  /** A webhook signature the fake accepts. */
  readonly secret = 'fake-transfer-secret';

  async resolveName(d: PayoutDestination): Promise<string | null> {
    const number = numberOf(d);
    return this.unknownAccounts.has(number) ? null : (this.registeredNames.get(number) ?? d.name);
  }

  async registerRecipient(d: PayoutDestination): Promise<RecipientCheck> {
    if (this.recipientsDown) throw errors.gateway('transfer provider answered 503');
    const number = numberOf(d);
    if (this.unknownAccounts.has(number)) return { state: 'refused', reason: 'no such account' };
    const code = this.recipients.get(number) ?? `RCP_fake_${number}`;
    this.recipients.set(number, code);
    return { state: 'registered', resolvedName: await this.resolveName(d), recipientCode: code };
  }

  async send(input: {
    reference: string;
    amountPesewas: number;
    destination: PayoutDestination;
    reason: string;
  }): Promise<TransferOutcome> {
    if (this.arrivalDelayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.arrivalDelayMs));
    await this.onArrival?.({ reference: input.reference, destination: input.destination });
    this.sends.push({ at: Date.now(), reference: input.reference, destination: input.destination });
    const existing = this.transfers.get(input.reference);
    if (existing) {
      existing.calls++;
      return this.outcome(existing);
    }
    const knob = this.knobs.shift() ?? 'paid';
    if (knob === 'error_before') throw errors.gateway('transfer provider answered 502');
    if (knob === 'hang_before') return new Promise(() => {});
    const state: TransferState =
      knob === 'fail' ? 'failed' : knob === 'pending' ? 'pending' : 'paid';
    const transfer: Transfer = {
      amountPesewas: input.amountPesewas,
      destination: input.destination,
      state,
      calls: 1,
    };
    this.transfers.set(input.reference, transfer);
    if (knob === 'timeout_after_accept') throw errors.gateway('transfer provider timed out');
    if (knob === 'hang_after_accept') return new Promise(() => {});
    return this.outcome(transfer);
  }

  async status(reference: string): Promise<TransferOutcome | { state: 'unknown' }> {
    const t = this.transfers.get(reference);
    return t ? this.outcome(t) : { state: 'unknown' };
  }

  transferHint(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): { reference: string } | undefined {
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
    return [...this.transfers.values()]
      .filter((t) => t.state === 'paid')
      .reduce((n, t) => n + t.amountPesewas, 0);
  }

  private outcome(t: Transfer): TransferOutcome {
    return {
      state: t.state,
      providerReference: `fk_${t.amountPesewas}`,
      feePesewas: t.state === 'paid' || t.state === 'reversed' ? this.feePesewas : null,
      reason:
        t.state === 'failed'
          ? 'account closed'
          : t.state === 'reversed'
            ? 'reversed by the bank'
            : null,
    };
  }
}

const numberOf = (d: PayoutDestination) => (d.kind === 'mobile_money' ? d.number : d.accountNumber);
