import type { AccountsService } from '../modules/accounts/index.ts';
import type { CatalogService } from '../modules/catalog/index.ts';
import type { CouriersService } from '../modules/couriers/index.ts';
import type { PayeeDirectory } from '../modules/payouts/index.ts';
import { isAppError } from '../platform/errors.ts';

type Couriers = Pick<CouriersService, 'get'>;

/** A courier account, deactivated ones too (what they earned is still owed); undefined when there is none. */
const courierOf = async (couriers: Couriers | undefined, id: string) =>
  couriers?.get(id).catch((err: unknown) => {
    if (isAppError(err) && err.statusCode === 404) return undefined;
    throw err;
  });

/**
 * Payouts' view of its payees, from the modules that own them: vendors from the catalog (none when
 * this instance serves no catalog), partners and their production apps from accounts, couriers
 * (paid their earnings) from couriers.
 */
export function payeeDirectory(
  accounts: Pick<AccountsService, 'partnerExists' | 'appsWithLiveKey'>,
  catalog: Pick<CatalogService, 'vendorPhone'> | undefined,
  couriers?: Couriers,
): PayeeDirectory {
  return {
    exists: async (kind, id) => {
      if (kind === 'vendor') return (await catalog?.vendorPhone(id)) !== undefined;
      if (kind === 'courier') return (await courierOf(couriers, id)) !== undefined;
      return accounts.partnerExists(id);
    },
    vendorPhone: async (id) => catalog?.vendorPhone(id),
    courierPhone: async (id) => (await courierOf(couriers, id))?.phone,
    productionApps: (q, partnerId) => accounts.appsWithLiveKey(partnerId, 'production', q),
  };
}

/** The port as the app fills it: accounts, couriers, and the catalog when this instance serves it (read when asked: ports are made before the modules). */
export function payeesFromAccountsAndCatalog(ctx: {
  accounts: AccountsService;
  couriers: Couriers;
  catalog: { catalog: Pick<CatalogService, 'vendorPhone'> } | undefined;
}): PayeeDirectory {
  const directory = () => payeeDirectory(ctx.accounts, ctx.catalog?.catalog, ctx.couriers);
  return {
    exists: (kind, id) => directory().exists(kind, id),
    vendorPhone: (id) => directory().vendorPhone(id),
    courierPhone: (id) => directory().courierPhone(id),
    productionApps: (q, partnerId) => directory().productionApps(q, partnerId),
  };
}
