import type { Queryable } from '../../platform/db/index.ts';
import type { PayeeKind } from './domain/destinations.ts';

/**
 * What payouts needs to know of its payees, which other modules own: whether a vendor (catalog),
 * partner (accounts) or courier (couriers) exists, a vendor's contact phone and a courier's phone
 * (told of a destination change), and which of a partner's apps hold a live
 * production key (where `payout.*` events go). The app fills it from those modules' public faces.
 */
export interface PayeeDirectory {
  exists(kind: PayeeKind, id: string): Promise<boolean>;
  vendorPhone(vendorId: string): Promise<string | undefined>;
  courierPhone(courierId: string): Promise<string | undefined>;
  /** Read in the caller's transaction: the events are written there. */
  productionApps(q: Queryable, partnerId: string): Promise<string[]>;
}
