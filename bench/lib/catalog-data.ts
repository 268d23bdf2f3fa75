/**
 * The safe-catalog bench data: vendors, products and variants with one shape whatever the size.
 * Product i belongs to vendor floor(i / 50), except every 20th product, which belongs to vendor 0
 * (a big vendor: 5% of the catalog, for deep vendor pages). Every 20th vendor (v % 20 = 19) is not
 * syndicated and every 50th product (i % 50 = 7) is inactive, so `listed` (active and the vendor
 * syndicatable, the flag migrations/006_catalog.sql denormalises) is false for ~7% of products.
 * Each product has 1 to 3 variants with ample stock (1,000,000), but i % 97 = 3 has none in stock.
 * PostgreSQL: loaded straight into the bench schema with INSERT ... SELECT generate_series, then
 * VACUUM ANALYZE. Embedded (no outside access to the database): through the operator API.
 */
import type pg from 'pg';
import { performance } from 'node:perf_hooks';
import { admin, type BenchServer } from './server.ts';

export const PER_VENDOR = 50;
export const vendorOf = (i: number) => (i % 20 === 0 ? 0 : Math.floor(i / PER_VENDOR));
export const syndicated = (v: number) => v % 20 !== 19;
export const active = (i: number) => i % 50 !== 7;
export const listed = (i: number) => active(i) && syndicated(vendorOf(i));
export const variantCount = (i: number) => 1 + (i % 3);
export const inStock = (i: number) => i % 97 !== 3;
const STOCK = 1_000_000;

const pad = (n: number) => String(n).padStart(16, '0');

/** Ids by index: formulas for SQL-loaded data, recorded answers for API-loaded data. */
export class CatalogIds {
  products: string[] = [];
  vendors: string[] = [];
  /** First variant of each product. */
  variants: string[] = [];

  static formula(size: number): CatalogIds {
    const ids = new CatalogIds();
    for (let i = 0; i < size; i++) {
      ids.products.push(`prd_0BENCH${pad(i)}`);
      ids.variants.push(`var_0BENCH${pad(i)}1`);
    }
    for (let v = 0; v < size / PER_VENDOR; v++) ids.vendors.push(`ven_0BENCH${pad(v)}`);
    return ids;
  }

  get size(): number {
    return this.products.length;
  }

  listedIndexes(vendor?: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.size; i++)
      if (listed(i) && (vendor === undefined || vendorOf(i) === vendor)) out.push(i);
    return out;
  }
}

/** Adds vendors, products and variants (append-only) until `size` products exist; then VACUUM ANALYZE. */
export async function growCatalogSql(
  client: pg.Client,
  from: number,
  size: number,
): Promise<{ insertSeconds: number; vacuumSeconds: number }> {
  const t0 = performance.now();
  const vid = (x: string) => `'ven_0BENCH' || lpad((${x})::text, 16, '0')`;
  const vendorExpr = `case when i % 20 = 0 then 0 else i / ${PER_VENDOR} end`;
  await client.query('begin');
  try {
    await client.query(
      `insert into vendors (id, name, syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng, created_at, updated_at)
       select ${vid('v')}, 'Bench Vendor ' || v, v % 20 <> 19, 500 + (v % 10) * 100, 'Efua Asante', '+23320' || lpad((v % 10000000)::text, 7, '0'),
              'Makola Market, Accra Central', 5.549 + (v % 100) / 10000.0, -0.205 - (v % 77) / 10000.0, now(), now()
         from generate_series($1::bigint, $2::bigint - 1) as v`,
      [from / PER_VENDOR, size / PER_VENDOR],
    );
    await client.query(
      `insert into products (id, vendor_id, title, description, images, category, active, listed, created_at, updated_at)
       select 'prd_0BENCH' || lpad(i::text, 16, '0'), ${vid(vendorExpr)}, 'Bench product ' || i,
              'Handwoven kente stole number ' || i || ', Bonwire kente, 2 m, cotton and rayon.',
              array['https://images.example.com/bench/' || i || '.jpg'], (array['Fashion', 'Beauty', 'Home', 'Groceries', 'Electronics'])[1 + i % 5],
              i % 50 <> 7, i % 50 <> 7 and (${vendorExpr}) % 20 <> 19, now(), now()
         from generate_series($1::bigint, $2::bigint - 1) as i`,
      [from, size],
    );
    await client.query(
      `insert into product_variants (id, product_id, position, label, price_pesewas, stock, reserved, sellable, created_at, updated_at)
       select 'var_0BENCH' || lpad(i::text, 16, '0') || k, 'prd_0BENCH' || lpad(i::text, 16, '0'), k, 'Variant ' || k,
              1000 + (i % 500) * 100 + k * 50, case when i % 97 = 3 then 0 else ${STOCK} end, 0, true, now(), now()
         from generate_series($1::bigint, $2::bigint - 1) as i, generate_series(1, 3) as k where k <= 1 + i % 3`,
      [from, size],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
  const t1 = performance.now();
  for (const t of ['vendors', 'products', 'product_variants'])
    await client.query(`vacuum (analyze) ${t}`);
  return { insertSeconds: (t1 - t0) / 1000, vacuumSeconds: (performance.now() - t1) / 1000 };
}

export async function catalogSizes(client: pg.Client): Promise<{
  vendors: number;
  products: number;
  listed: number;
  variants: number;
  productsMb: number;
}> {
  const { rows } = await client.query<Record<string, string>>(
    `select (select count(*) from vendors) as vendors, (select count(*) from products) as products, (select count(*) from products where listed) as listed,
            (select count(*) from product_variants) as variants, pg_total_relation_size('products') + pg_total_relation_size('product_variants') as bytes`,
  );
  const r = rows[0]!;
  return {
    vendors: Number(r.vendors),
    products: Number(r.products),
    listed: Number(r.listed),
    variants: Number(r.variants),
    productsMb: Number(r.bytes) / 2 ** 20,
  };
}

/** The plan PostgreSQL picks for catalog.list's page query (repository.page), e.g. the index it walks. */
export async function explainPage(
  client: pg.Client,
  vendorId: string | null,
  after: string | null,
): Promise<string> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `explain select p.id from products p join vendors v on v.id = p.vendor_id
      where ($1::text is null or p.vendor_id = $1) and ($2::text is null or p.id > $2) and p.listed order by p.id limit 51`,
    [vendorId, after],
  );
  const plan = rows.map((r) => r['QUERY PLAN']).join(' ');
  return [
    ...plan.matchAll(
      /(Index Only Scan|Index Scan|Seq Scan|Bitmap Heap Scan)(?: Backward)?(?: using (\S+))? on (\S+)/g,
    ),
  ]
    .map((m) => `${m[1]}${m[2] ? ` ${m[2]}` : ''} on ${m[3]}`)
    .join(', ');
}

/** The same catalog through the operator API (POST /admin/v1/vendors and /products), `workers` calls at a time. */
export async function loadCatalogApi(
  server: BenchServer,
  size: number,
  workers = 4,
): Promise<CatalogIds> {
  const ids = new CatalogIds();
  for (let v = 0; v < size / PER_VENDOR; v++) {
    const vendor = await admin<{ vendor_id: string }>(server, 'POST', '/vendors', {
      name: `Bench Vendor ${v}`,
      syndicatable: syndicated(v),
      commission_rate: 0.1,
      pickup: {
        contact_person: 'Efua Asante',
        contact_phone: '020 000 0101',
        address: 'Makola Market, Accra Central',
        coordinates: { lat: 5.549, lng: -0.205 },
      },
    });
    ids.vendors.push(vendor.vendor_id);
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < size; i = next++) {
      const p = await admin<{ product_id: string; variants: Array<{ variant_id: string }> }>(
        server,
        'POST',
        '/products',
        {
          vendor_id: ids.vendors[vendorOf(i)],
          title: `Bench product ${i}`,
          description: `Handwoven kente stole number ${i}.`,
          images: [`https://images.example.com/bench/${i}.jpg`],
          category: 'Fashion',
          active: active(i),
          variants: Array.from({ length: variantCount(i) }, (_, k) => ({
            label: `Variant ${k + 1}`,
            price_ghs: 10 + (i % 500) + k / 2,
            stock: inStock(i) ? STOCK : 0,
          })),
        },
      );
      ids.products[i] = p.product_id;
      ids.variants[i] = p.variants[0]!.variant_id;
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return ids;
}
