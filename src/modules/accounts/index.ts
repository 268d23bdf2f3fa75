/** Accounts' public face: partners, apps and keys, the key directory the auth pipeline reads, and the quick start. */
export { AccountsService } from './service.ts';
export { KeyDirectory } from './key-directory.ts';
export { appRoutes } from './routes/apps.ts';
export { partnerRoutes } from './routes/partners.ts';
export {
  ensureSandboxQuickstart,
  PRODUCTION_QUICKSTART_FILE,
  QUICKSTART_FILE,
} from './quickstart.ts';
export { partnerView, type PartnerView } from './views.ts';
export { accountsModule } from './module.ts';
