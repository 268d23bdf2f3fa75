import { describe, expect, it } from 'vitest';
import { payeesFromAccountsAndCatalog } from '../../../src/flows/payouts-find-payees.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { as, TX } from '../faces.ts';

describe("payouts' directory of payees", () => {
  const couriers = {
    get: async (id: string) => {
      if (id === 'cou_1') return { id, phone: '+233240000009' };
      throw new AppError(404, 'COURIER_NOT_FOUND', 'no such courier');
    },
  };
  const accounts = {
    partnerExists: async (id: string) => id === 'prt_1',
    appsWithLiveKey: async (partnerId: string, env: string) => [`${partnerId}:${env}`],
  };

  it('finds vendors in the catalog (read when asked: the catalog is built after the port) and partners in accounts', async () => {
    const ctx: { accounts: unknown; catalog: unknown; couriers: unknown } = {
      accounts,
      catalog: undefined,
      couriers,
    };
    const directory = payeesFromAccountsAndCatalog(as(ctx));
    expect(await directory.exists('vendor', 'ven_1')).toBe(false);
    ctx.catalog = {
      catalog: {
        vendorPhone: async (id: string) => (id === 'ven_1' ? '+233200000001' : undefined),
      },
    };
    expect(await directory.exists('vendor', 'ven_1')).toBe(true);
    expect(await directory.vendorPhone('ven_1')).toBe('+233200000001');
    expect(await directory.exists('vendor', 'ven_2')).toBe(false);
    expect(await directory.exists('partner', 'prt_1')).toBe(true);
    expect(await directory.productionApps(TX, 'prt_1')).toEqual(['prt_1:production']);
  });

  it('finds couriers (paid their earnings) in couriers; another failure is not taken for a missing courier', async () => {
    const directory = payeesFromAccountsAndCatalog(as({ accounts, catalog: undefined, couriers }));
    expect(await directory.exists('courier', 'cou_1')).toBe(true);
    expect(await directory.exists('courier', 'cou_2')).toBe(false);
    expect(await directory.courierPhone('cou_1')).toBe('+233240000009');
    expect(await directory.courierPhone('cou_2')).toBeUndefined();
    const down = payeesFromAccountsAndCatalog(
      as({
        accounts,
        catalog: undefined,
        couriers: { get: async () => Promise.reject(new Error('database down')) },
      }),
    );
    await expect(down.exists('courier', 'cou_1')).rejects.toThrow('database down');
  });
});
