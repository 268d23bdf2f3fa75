import type { Db } from '../../platform/db/index.ts';
import { ulid } from '../../platform/ids.ts';
import type {
  BulkAnswer,
  PayoutDestination,
  RecipientCheck,
  TransferOutcome,
  TransferProvider,
  TransferRequest,
} from './types.ts';

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
  /** As Paystack's bulk transfer takes. */
  readonly maxBulk = 100;

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
    const number =
      destination.kind === 'mobile_money' ? destination.number : destination.accountNumber;
    if (lastTwo(destination) === '95')
      return { state: 'refused', reason: 'sandbox: no such account' };
    return {
      state: 'registered',
      resolvedName: await this.resolveName(destination),
      recipientCode: `RCP_sandbox_${number}`,
    };
  }

  async send(input: TransferRequest): Promise<TransferOutcome> {
    const answer = await this.sendBulk([input]);
    const outcome = answer.state === 'answered' ? answer.outcomes.get(input.reference) : undefined;
    if (!outcome) throw new Error(`sandbox transfer ${input.reference} vanished`);
    return outcome;
  }

  /** Records them all in one statement (a reference already received is answered, never recorded again) and answers each. */
  async sendBulk(items: readonly TransferRequest[]): Promise<BulkAnswer> {
    if (items.length === 0 || items.length > this.maxBulk)
      throw new RangeError(`a bulk transfer takes 1 to ${this.maxBulk} transfers`);
    for (const input of items) {
      if (!REFERENCE.test(input.reference))
        throw new RangeError('reference must be 1 to 100 letters, digits, - or _');
      if (!Number.isSafeInteger(input.amountPesewas) || input.amountPesewas <= 0)
        throw new RangeError('amountPesewas must be a positive integer');
    }
    const at = this.clock();
    await this.db.query(
      `insert into sandbox_transfers (reference, amount_pesewas, destination, reason, provider_reference, created_at)
       select * from unnest($1::text[], $2::bigint[], $3::jsonb[], $4::text[], $5::text[], $6::timestamptz[]) on conflict (reference) do nothing`,
      [
        items.map((i) => i.reference),
        items.map((i) => i.amountPesewas),
        items.map((i) => JSON.stringify(i.destination)),
        items.map((i) => i.reason),
        items.map(() => `TRF_${ulid(at)}`),
        items.map(() => new Date(at)),
      ],
    );
    const rows = await this.#findAll(items.map((i) => i.reference));
    return {
      state: 'answered',
      outcomes: new Map(rows.map((r) => [r.reference, this.#outcome(r)])),
    };
  }

  async status(reference: string): Promise<TransferOutcome | { state: 'unknown' }> {
    const row = await this.#find(reference);
    return row ? this.#outcome(row) : { state: 'unknown' };
  }

  transferHint(): undefined {
    return undefined;
  }

  async #find(reference: string): Promise<SandboxTransferRow | undefined> {
    return (await this.#findAll([reference]))[0];
  }

  async #findAll(references: readonly string[]): Promise<SandboxTransferRow[]> {
    const rows = await this.db.query<SandboxTransferRow>(
      'select reference, amount_pesewas, destination, provider_reference, created_at from sandbox_transfers where reference = any($1::text[])',
      [references],
    );
    // The embedded database may hand jsonb back as text.
    return rows.map((row) =>
      typeof row.destination === 'string'
        ? { ...row, destination: JSON.parse(row.destination) as PayoutDestination }
        : row,
    );
  }

  #outcome(row: SandboxTransferRow): TransferOutcome {
    const providerReference = row.provider_reference;
    const ending = lastTwo(row.destination);
    if (ending === '99')
      return {
        state: 'failed',
        providerReference,
        feePesewas: null,
        reason: 'sandbox: destination refuses transfers',
      };
    const age = this.clock() - row.created_at.getTime();
    if (age < this.delayMs)
      return { state: 'pending', providerReference, feePesewas: null, reason: null };
    if (ending === '98' && age >= 2 * this.delayMs) {
      return {
        state: 'reversed',
        providerReference,
        feePesewas: SANDBOX_TRANSFER_FEE_PESEWAS,
        reason: 'sandbox: reversed by the receiving institution',
      };
    }
    return {
      state: 'paid',
      providerReference,
      feePesewas: SANDBOX_TRANSFER_FEE_PESEWAS,
      reason: null,
    };
  }
}

function lastTwo(destination: PayoutDestination): string {
  return (
    destination.kind === 'mobile_money' ? destination.number : destination.accountNumber
  ).slice(-2);
}
