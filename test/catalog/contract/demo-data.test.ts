import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { DEMO_VENDORS, loadDemoCatalog } from '../../../src/playground/catalog-data.ts';

// The one test that loads the demo catalog, on purpose: it proves the data passes every operator rule.
describe('demo catalog', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform({ socket: false });
  });
  afterAll(() => p.close());

  it('loads a dozen vendors and about sixty products into an empty catalog, and refuses a second load', async () => {
    const catalog = p.app.platform.catalog!.catalog;
    expect(await loadDemoCatalog(catalog)).toEqual({ vendors: 12, products: 60 });
    await expect(loadDemoCatalog(catalog)).rejects.toThrow(/empty catalog/);
    const s = await createPartner(p, { scopes: ['safe:read'] });
    const listed = await s.client.send<any>('GET', '/api/v1/safe-catalog/catalog.list', {
      query: { limit: 200 },
    });
    // One vendor is not syndicated (5 products) and one product is inactive.
    expect(listed.body.data.count).toBe(60 - 5 - 1);
    expect(new Set(listed.body.data.products.map((x: any) => x.vendor_name)).size).toBe(
      DEMO_VENDORS.length - 1,
    );
  });
});
