/** The wallet's public face: the module the app wires, and the service delivery debits order fees through. */
export { createWalletModule, type WalletModule } from './module.ts';
export {
  MINIMUM_TOPUP_PESEWAS,
  TOPUP_REFERENCE,
  type TopupCheck,
  type WalletService,
} from './service.ts';
export type { TopupRow } from './repository.ts';
export { TOPUP_STATES, TopupReads } from './topup-reads.ts';
export { walletModule } from './module.ts';
