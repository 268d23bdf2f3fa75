import { describe, expect, it } from 'vitest';
import { payeesFromAccountsAndCatalog } from '../../../src/flows/payouts-find-payees.ts';
import { as, TX } from '../faces.ts';

describe("payouts' directory of payees", () => {
  const accounts = {
    partnerExists: async (id: string) => id === 'prt_1',
    appsWithLiveKey: async (partnerId: string, env: string) => [`${partnerId}:${env}`],
  };

  it('finds vendors in the catalog (read when asked: the catalog is built after the port) and partners in accounts', async () => {
    const ctx: { accounts: unknown; catalog: unknown } = { accounts, catalog: undefined };
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
});
