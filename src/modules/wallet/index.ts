/** The wallet's public face: the module the app wires, and the service delivery debits order fees through. */
export { createWalletModule, type WalletModule } from './module.ts';
export type { WalletService } from './service.ts';
