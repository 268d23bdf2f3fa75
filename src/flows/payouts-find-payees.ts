import type { AccountsService } from '../modules/accounts/index.ts';
import type { CatalogService } from '../modules/catalog/index.ts';
import type { PayeeDirectory } from '../modules/payouts/index.ts';

/**
 * Payouts' view of its payees, from the modules that own them: vendors from the catalog (none when
 * this instance serves no catalog), partners and their production apps from accounts.
 */
export function payeeDirectory(
  accounts: Pick<AccountsService, 'partnerExists' | 'appsWithLiveKey'>,
  catalog: Pick<CatalogService, 'vendorPhone'> | undefined,
): PayeeDirectory {
  return {
    exists: async (kind, id) =>
      kind === 'vendor'
        ? (await catalog?.vendorPhone(id)) !== undefined
        : accounts.partnerExists(id),
    vendorPhone: async (id) => catalog?.vendorPhone(id),
    productionApps: (q, partnerId) => accounts.appsWithLiveKey(partnerId, 'production', q),
  };
}

/** The port as the app fills it: accounts, and the catalog when this instance serves it (read when asked: ports are made before the modules). */
export function payeesFromAccountsAndCatalog(ctx: {
  accounts: AccountsService;
  catalog: { catalog: Pick<CatalogService, 'vendorPhone'> } | undefined;
}): PayeeDirectory {
  const directory = () => payeeDirectory(ctx.accounts, ctx.catalog?.catalog);
  return {
    exists: (kind, id) => directory().exists(kind, id),
    vendorPhone: (id) => directory().vendorPhone(id),
    productionApps: (q, partnerId) => directory().productionApps(q, partnerId),
  };
}
