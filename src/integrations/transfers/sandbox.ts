import type { Db } from '../../platform/db/index.ts';
import { ulid } from '../../platform/ids.ts';
import type { PayoutDestination, RecipientCheck, TransferOutcome, TransferProvider } from './types.ts';

interface SandboxTransferRow {
  reference: string;
  amount_pesewas: number;
  destination: PayoutDestination;
  provider_reference: string;
  created_at: Date;
}

/** What the sandbox charges per paid transfer (a flat GHS 1), so fee journals are exercised. */
export const SANDBOX_TRANSFER_FEE_PESEWAS = 100;

const REFERENCE = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The built-in transfer provider, the default when no real one is configured (PAYOUT_PROVIDER=sandbox).
 * No money moves. Its transfers live in `sandbox_transfers`, so a restart or another instance keeps
 * answering for them, and a reference it already received is answered, never sent again.
 *
 * Deterministic outcomes, by the destination's number (mobile money) or account number (bank):
 * - ending in 99: failed at once ("sandbox: destination refuses transfers");
 * - ending in 98: paid after the delay, then reversed after twice the delay;
 * - anything else: pending for `delayMs` after it was received, then paid with a fee of GHS 1.
 * Name lookup answers the registered name given, except that numbers ending in 97 resolve to
 * "SANDBOX OTHER NAME" (a mismatch to show) and 96 to no name (lookup unavailable); registering a
 * recipient answers the same name and a recipient code made of the number, except that numbers
 * ending in 95 are refused (an unknown account).
 * It sends no webhooks: callers learn outcomes by `status`.
 */
export class SandboxTransfers implements TransferProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Db,
    private readonly delayMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async resolveName(destination: PayoutDestination): Promise<string | null> {
    const ending = lastTwo(destination);
    if (ending === '96') return null;
    return ending === '97' ? 'SANDBOX OTHER NAME' : destination.name;
  }

  async registerRecipient(destination: PayoutDestination): Promise<RecipientCheck> {
    const number = destination.kind === 'mobile_money' ? destination.number : destination.accountNumber;
    if (lastTwo(destination) === '95') return { state: 'refused', reason: 'sandbox: no such account' };
    return { state: 'registered', resolvedName: await this.resolveName(destination), recipientCode: `RCP_sandbox_${number}` };
  }

  async send(input: { reference: string; amountPesewas: number; destination: PayoutDestination; reason: string }): Promise<TransferOutcome> {
    if (!REFERENCE.test(input.reference)) throw new RangeError('reference must be 1 to 100 letters, digits, - or _');
    if (!Number.isSafeInteger(input.amountPesewas) || input.amountPesewas <= 0) throw new RangeError('amountPesewas must be a positive integer');
    await this.db.query(
      `insert into sandbox_transfers (reference, amount_pesewas, destination, reason, provider_reference, created_at)
       values ($1, $2, $3, $4, $5, $6) on conflict (reference) do nothing`,
      [input.reference, input.amountPesewas, JSON.stringify(input.destination), input.reason, `TRF_${ulid(this.clock())}`, new Date(this.clock())],
    );
    const row = await this.#find(input.reference);
    if (!row) throw new Error(`sandbox transfer ${input.reference} vanished`);
    return this.#outcome(row);
  }

  async status(reference: string): Promise<TransferOutcome | { state: 'unknown' }> {
    const row = await this.#find(reference);
    return row ? this.#outcome(row) : { state: 'unknown' };
  }

  transferHint(): undefined {
    return undefined;
  }

  async #find(reference: string): Promise<SandboxTransferRow | undefined> {
    const rows = await this.db.query<SandboxTransferRow>(
      'select reference, amount_pesewas, destination, provider_reference, created_at from sandbox_transfers where reference = $1',
      [reference],
    );
    const row = rows[0];
    // The embedded database may hand jsonb back as text.
    return row && typeof row.destination === 'string' ? { ...row, destination: JSON.parse(row.destination) as PayoutDestination } : row;
  }

  #outcome(row: SandboxTransferRow): TransferOutcome {
    const providerReference = row.provider_reference;
    const ending = lastTwo(row.destination);
    if (ending === '99') return { state: 'failed', providerReference, feePesewas: null, reason: 'sandbox: destination refuses transfers' };
    const age = this.clock() - row.created_at.getTime();
    if (age < this.delayMs) return { state: 'pending', providerReference, feePesewas: null, reason: null };
    if (ending === '98' && age >= 2 * this.delayMs) {
      return { state: 'reversed', providerReference, feePesewas: SANDBOX_TRANSFER_FEE_PESEWAS, reason: 'sandbox: reversed by the receiving institution' };
    }
    return { state: 'paid', providerReference, feePesewas: SANDBOX_TRANSFER_FEE_PESEWAS, reason: null };
  }
}

function lastTwo(destination: PayoutDestination): string {
  return (destination.kind === 'mobile_money' ? destination.number : destination.accountNumber).slice(-2);
}
