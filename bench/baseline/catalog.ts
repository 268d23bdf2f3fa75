/**
 * The bare baseline's catalog (issue 30: catalog.list beside the headline's three measures): tables
 * with the columns, checks and indexes of the platform's vendors, products and product_variants
 * (migrations/006_catalog.sql), no foreign keys, seeded with the bench's catalog shape
 * (bench/lib/catalog-data.ts: product i of vendor i / 50, every 20th vendor not syndicated, every
 * 50th product inactive), and the one read it answers: a first page of listed products with their
 * variants, in the two statements catalog.list runs (the page through the partial index, then the
 * page's variants).
 */
import { PER_VENDOR } from '../lib/catalog-data.ts';

/** Products seeded on both sides: four pages of 50 (the platform's through the operator API). */
export const CATALOG_ROWS = 200;

const V = 'bench_baseline_vendors';
const P = 'bench_baseline_products';
const PV = 'bench_baseline_variants';

export const CATALOG_DDL = `
create table if not exists ${V} (
  id text primary key,
  name text not null,
  syndicatable boolean not null default false,
  commission_bps integer not null check (commission_bps between 0 and 10000),
  pickup_contact_person text not null,
  pickup_contact_phone text not null,
  pickup_address text not null,
  pickup_lat double precision not null check (pickup_lat between -90 and 90),
  pickup_lng double precision not null check (pickup_lng between -180 and 180),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create table if not exists ${P} (
  id text primary key,
  vendor_id text not null,
  title text not null,
  description text not null,
  images text[] not null default '{}',
  category text,
  active boolean not null default true,
  listed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists ${P}_listed_idx on ${P} (id) where listed;
create index if not exists ${P}_vendor_listed_idx on ${P} (vendor_id, id) where listed;
create index if not exists ${P}_vendor_idx on ${P} (vendor_id, id);
create table if not exists ${PV} (
  id text primary key,
  product_id text not null,
  position integer not null,
  label text not null,
  price_pesewas bigint not null check (price_pesewas > 0),
  stock integer not null check (stock >= 0),
  reserved integer not null default 0 check (reserved >= 0 and reserved <= stock),
  sellable boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (product_id, position)
);
`;

const VENDOR_OF = `case when i % 20 = 0 then 0 else i / ${PER_VENDOR} end`;

/** Fills the catalog with products 0..$1-1 (one script per table: each a parameterised statement). */
export const CATALOG_SEED_SQL = [
  `insert into ${V} (id, name, syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng)
   select 'ven_0BASELINE' || lpad(v::text, 16, '0'), 'Bench Vendor ' || v, v % 20 <> 19, 1000, 'Efua Asante',
          '+233200000101', 'Makola Market, Accra Central', 5.549, -0.205
     from generate_series(0, ($1::int - 1) / ${PER_VENDOR}) as v
   on conflict do nothing`,
  `insert into ${P} (id, vendor_id, title, description, images, category, active, listed)
   select 'prd_0BASELINE' || lpad(i::text, 16, '0'), 'ven_0BASELINE' || lpad((${VENDOR_OF})::text, 16, '0'),
          'Bench product ' || i, 'Handwoven kente stole number ' || i || '.',
          array['https://images.example.com/bench/' || i || '.jpg'], 'Fashion',
          i % 50 <> 7, i % 50 <> 7 and (${VENDOR_OF}) % 20 <> 19
     from generate_series(0, $1::int - 1) as i
   on conflict do nothing`,
  `insert into ${PV} (id, product_id, position, label, price_pesewas, stock)
   select 'var_0BASELINE' || lpad(i::text, 16, '0') || k, 'prd_0BASELINE' || lpad(i::text, 16, '0'), k,
          'Variant ' || k, 1000 + (i % 500) * 100 + k * 50, case when i % 97 = 3 then 0 else 1000000 end
     from generate_series(0, $1::int - 1) as i, generate_series(1, 3) as k where k <= 1 + i % 3
   on conflict do nothing`,
];

export const CATALOG_TABLES = [V, P, PV];

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** GET /catalog?limit=N: the first page of listed products (at most 200) with their variants. */
export async function catalogPage(query: Query, limit: number) {
  const products = await query(
    `select p.id, p.vendor_id, v.name as vendor_name, p.title, p.description, p.images, p.category
       from ${P} p join ${V} v on v.id = p.vendor_id where p.listed order by p.id limit $1`,
    [Math.min(limit, 200) + 1],
  );
  const page = products.slice(0, limit);
  const variants = await query(
    `select id, product_id, label, price_pesewas, stock, reserved, sellable from ${PV}
      where product_id = any($1) order by product_id, position`,
    [page.map((p) => p.id)],
  );
  const byProduct = new Map<unknown, Array<Record<string, unknown>>>();
  for (const v of variants)
    byProduct.set(v.product_id, [...(byProduct.get(v.product_id) ?? []), v]);
  return {
    products: page.map((p) => ({
      ...p,
      variants: (byProduct.get(p.id) ?? []).map((v) => ({
        variant_id: v.id,
        label: v.label,
        price_ghs: Number(v.price_pesewas) / 100,
        in_stock: Boolean(v.sellable) && Number(v.stock) - Number(v.reserved) > 0,
      })),
    })),
    count: page.length,
    next_cursor: products.length > limit ? String(page.at(-1)!.id) : null,
  };
}
