import type { Db } from '../../platform/db/index.ts';
import { PaystackTransfers } from './paystack.ts';
import { SandboxTransfers } from './sandbox.ts';
import type { TransferSettings } from './settings.ts';
import type { TransferProvider } from './types.ts';

export type {
  BulkAnswer,
  PayoutDestination,
  TransferOutcome,
  TransferProvider,
  TransferRequest,
  TransferState,
} from './types.ts';
export { transferSettings, type TransferSettings } from './settings.ts';
export { PaystackTransfers, paystackRecipient } from './paystack.ts';
export { SandboxTransfers } from './sandbox.ts';

/** The provider that pays money out, as configured (PAYOUT_PROVIDER); the sandbox is the embedded default. */
export function createTransferProvider(
  settings: TransferSettings,
  db: Db,
  clock: () => number = Date.now,
): TransferProvider {
  if (settings.provider === 'paystack' && settings.paystack)
    return new PaystackTransfers(settings.paystack);
  return new SandboxTransfers(db, settings.sandboxDelaySeconds * 1000, clock);
}
