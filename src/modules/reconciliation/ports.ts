import type { Queryable } from '../../platform/db/index.ts';
import type { TransferRecord } from './domain/match-transfers.ts';

/** The references the gateways saw for these ledger subjects (top-ups, sales), by subject id; the app fills it from their modules. */
export type GatewayReferences = (subjectIds: readonly string[]) => Promise<Map<string, string>>;

/**
 * Transfers one module sent through the transfer provider (payouts; buyer refunds by mobile money),
 * as a statement is matched against them. The app passes one per module, from its public face.
 */
export interface TransferBooks {
  /** Its transfers through `provider` with these references. */
  byReference(provider: string, references: readonly string[]): Promise<TransferRecord[]>;
  /** Its transfers through `provider` whose journals have these subjects. */
  bySubject(provider: string, subjectIds: readonly string[]): Promise<TransferRecord[]>;
  /**
   * Books, in the caller's transaction, the fee of a transfer that moved money but whose answer gave
   * no fee: the module's own fee journal, once. False when the reference is not its own, not paid,
   * or already has a fee.
   */
  bookFee(
    tx: Queryable,
    provider: string,
    reference: string,
    feePesewas: number,
    at: Date,
  ): Promise<boolean>;
}
