import { describe, expect, it } from 'vitest';
import { catalogRepository as repo } from '../../../src/modules/catalog/products/repository.ts';
import { fileDatabase } from '../../helpers/file-database.ts';

// Partner reads (listed products only) take the columns the contract's product shows and nothing
// else: catalog.list answers 50 products a page, and the operator's switches and two dates per
// product were parsed (dates are the driver's slowest parse) only to be dropped. Operator reads
// keep every column.

const database = fileDatabase(async (db) => {
  await db.query(
    `insert into vendors (id, name, syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng)
     values ('ven_reads', 'Makola Crafts', true, 1000, 'Efua', '+233200000101', 'Makola', 5.549, -0.205)`,
  );
  await db.query(
    `insert into products (id, vendor_id, title, description, images, category, listed)
     values ('prd_reads', 'ven_reads', 'Kente stole', 'Handwoven', '{https://img.example.org/1.jpg}', 'Fashion', true)`,
  );
});

const CATALOG_COLUMNS = [
  'category',
  'description',
  'id',
  'images',
  'title',
  'vendor_id',
  'vendor_name',
];
const OPERATOR_COLUMNS = [...CATALOG_COLUMNS, 'active', 'created_at', 'listed', 'updated_at'];

describe('catalog reads by audience', () => {
  it('a partner page and a partner product read only the catalog columns', async () => {
    const [row] = await repo.page(database(), { limit: 10, listedOnly: true });
    expect(Object.keys(row!).sort()).toEqual(CATALOG_COLUMNS);
    expect(row).toMatchObject({ id: 'prd_reads', vendor_name: 'Makola Crafts' });
    const one = await repo.getProduct(database(), 'prd_reads', { listedOnly: true });
    expect(Object.keys(one!).sort()).toEqual(CATALOG_COLUMNS);
  });

  it('an operator page and product read every column, dates as dates', async () => {
    const [row] = await repo.page(database(), { limit: 10, listedOnly: false });
    expect(Object.keys(row!).sort()).toEqual(OPERATOR_COLUMNS.sort());
    expect(row!.created_at).toBeInstanceOf(Date);
    const one = await repo.getProduct(database(), 'prd_reads', { listedOnly: false });
    expect(Object.keys(one!).sort()).toEqual(OPERATOR_COLUMNS.sort());
  });
});
