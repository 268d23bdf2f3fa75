import type { Queryable } from '../../../platform/db/index.ts';

export interface VendorRow {
  id: string;
  name: string;
  syndicatable: boolean;
  commission_bps: number;
  pickup_contact_person: string;
  pickup_contact_phone: string;
  pickup_address: string;
  pickup_lat: number;
  pickup_lng: number;
  created_at: Date;
  updated_at: Date;
}

/** What a partner's catalog shows of a product (no operator switches, no dates to parse). */
export interface CatalogProductRow {
  id: string;
  vendor_id: string;
  vendor_name: string;
  title: string;
  description: string;
  images: string[];
  category: string | null;
}

export interface ProductRow extends CatalogProductRow {
  active: boolean;
  listed: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface VariantRow {
  id: string;
  product_id: string;
  position: number;
  label: string;
  price_pesewas: number;
  stock: number;
  reserved: number;
  sellable: boolean;
}

export type VendorValues = Omit<VendorRow, 'id' | 'created_at' | 'updated_at'>;
export type ProductValues = Pick<
  ProductRow,
  'title' | 'description' | 'images' | 'category' | 'active'
>;

const VENDOR_COLS =
  'id, name, syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng, created_at, updated_at';
const CATALOG_COLS =
  'p.id, p.vendor_id, v.name as vendor_name, p.title, p.description, p.images, p.category';
const PRODUCT_COLS = `${CATALOG_COLS}, p.active, p.listed, p.created_at, p.updated_at`;
/** Partner reads (listed products only) take the catalog's columns; operator reads take all. */
type ProductRowOf<Listed extends boolean> = Listed extends true ? CatalogProductRow : ProductRow;
const productCols = (listedOnly: boolean) => (listedOnly ? CATALOG_COLS : PRODUCT_COLS);
const VARIANT_COLS = 'id, product_id, position, label, price_pesewas, stock, reserved, sellable';

/** `set a = $2, b = $3` for the defined members of a patch, parameters after `first`. */
function assignments(
  patch: Record<string, unknown>,
  first: number,
): { sql: string; params: unknown[] } {
  const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
  return {
    sql: entries.map(([k], i) => `${k} = $${first + i}`).join(', '),
    params: entries.map(([, v]) => v),
  };
}

export const catalogRepository = {
  async insertVendor(db: Queryable, id: string, v: VendorValues, at: Date): Promise<VendorRow> {
    const rows = await db.query<VendorRow>(
      `insert into vendors (id, name, syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) returning ${VENDOR_COLS}`,
      [
        id,
        v.name,
        v.syndicatable,
        v.commission_bps,
        v.pickup_contact_person,
        v.pickup_contact_phone,
        v.pickup_address,
        v.pickup_lat,
        v.pickup_lng,
        at,
      ],
    );
    return rows[0]!;
  },

  async updateVendor(
    tx: Queryable,
    id: string,
    patch: Partial<VendorValues>,
    at: Date,
  ): Promise<VendorRow | undefined> {
    const set = assignments(patch, 3);
    const rows = await tx.query<VendorRow>(
      `update vendors set ${set.sql ? `${set.sql}, ` : ''}updated_at = $2 where id = $1 returning ${VENDOR_COLS}`,
      [id, at, ...set.params],
    );
    return rows[0];
  },

  /** Keeps `listed` = active and syndicatable for one vendor's products (after a syndication flip). */
  async relistVendorProducts(tx: Queryable, vendorId: string, at: Date): Promise<void> {
    await tx.query(
      `update products p set listed = p.active and v.syndicatable, updated_at = $2
         from vendors v where v.id = p.vendor_id and p.vendor_id = $1 and p.listed <> (p.active and v.syndicatable)`,
      [vendorId, at],
    );
  },

  /**
   * The vendor row; `true` share-locks it inside a transaction so a syndication flip cannot
   * interleave, `'update'` locks it for a change read before it is made.
   */
  async getVendor(
    db: Queryable,
    id: string,
    lock: boolean | 'update' = false,
  ): Promise<VendorRow | undefined> {
    const suffix = lock === 'update' ? ' for update' : lock ? ' for share' : '';
    return (
      await db.query<VendorRow>(`select ${VENDOR_COLS} from vendors where id = $1${suffix}`, [id])
    )[0];
  },

  async listVendors(db: Queryable, limit: number, after: string | undefined): Promise<VendorRow[]> {
    return db.query<VendorRow>(
      `select ${VENDOR_COLS} from vendors where ($1::text is null or id > $1) order by id limit $2`,
      [after ?? null, limit],
    );
  },

  async countVendors(db: Queryable): Promise<number> {
    return (await db.query<{ n: number }>('select count(*)::int as n from vendors'))[0]!.n;
  },

  async insertProduct(
    tx: Queryable,
    id: string,
    vendor: VendorRow,
    p: ProductValues,
    at: Date,
  ): Promise<void> {
    await tx.query(
      `insert into products (id, vendor_id, title, description, images, category, active, listed, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [
        id,
        vendor.id,
        p.title,
        p.description,
        p.images,
        p.category,
        p.active,
        p.active && vendor.syndicatable,
        at,
      ],
    );
  },

  async insertVariants(
    tx: Queryable,
    productId: string,
    variants: ReadonlyArray<{ id: string; label: string; pricePesewas: number; stock: number }>,
    at: Date,
  ): Promise<void> {
    const values = variants.map(
      (_, i) =>
        `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}, $${variants.length * 5 + 1}, $${variants.length * 5 + 2}, $${variants.length * 5 + 2})`,
    );
    await tx.query(
      `insert into product_variants (id, position, label, price_pesewas, stock, product_id, created_at, updated_at) values ${values.join(', ')}`,
      [
        ...variants.flatMap((v, i) => [v.id, i + 1, v.label, v.pricePesewas, v.stock]),
        productId,
        at,
      ],
    );
  },

  /** Applies a patch and recomputes `listed` from the (new) active flag and the vendor's syndication. */
  async updateProduct(
    tx: Queryable,
    id: string,
    patch: Partial<ProductValues>,
    syndicatable: boolean,
    at: Date,
  ): Promise<void> {
    const set = assignments(patch, 5);
    await tx.query(
      `update products set ${set.sql ? `${set.sql}, ` : ''}listed = coalesce($4::boolean, active) and $3, updated_at = $2 where id = $1`,
      [id, at, syndicatable, patch.active ?? null, ...set.params],
    );
  },

  async lockVariant(
    tx: Queryable,
    productId: string,
    variantId: string,
  ): Promise<VariantRow | undefined> {
    return (
      await tx.query<VariantRow>(
        `select ${VARIANT_COLS} from product_variants where id = $1 and product_id = $2 for update`,
        [variantId, productId],
      )
    )[0];
  },

  async updateVariant(
    tx: Queryable,
    id: string,
    patch: { stock?: number; price_pesewas?: number; sellable?: boolean },
    at: Date,
  ): Promise<void> {
    const set = assignments(patch, 3);
    await tx.query(
      `update product_variants set ${set.sql ? `${set.sql}, ` : ''}updated_at = $2 where id = $1`,
      [id, at, ...set.params],
    );
  },

  async getProduct<Listed extends boolean>(
    db: Queryable,
    id: string,
    opts: { listedOnly: Listed },
  ): Promise<ProductRowOf<Listed> | undefined> {
    const rows = await db.query<ProductRowOf<Listed>>(
      `select ${productCols(opts.listedOnly)} from products p join vendors v on v.id = p.vendor_id where p.id = $1${opts.listedOnly ? ' and p.listed' : ''}`,
      [id],
    );
    return rows[0];
  },

  /**
   * One keyset page, by product id. With `listedOnly` the planner walks products_listed_idx (or
   * products_vendor_listed_idx with a vendor) and stops after `limit` rows, whatever the table size.
   */
  async page<Listed extends boolean>(
    db: Queryable,
    q: { vendorId?: string; after?: string; limit: number; listedOnly: Listed },
  ): Promise<Array<ProductRowOf<Listed>>> {
    return db.query<ProductRowOf<Listed>>(
      `select ${productCols(q.listedOnly)} from products p join vendors v on v.id = p.vendor_id
        where ($1::text is null or p.vendor_id = $1) and ($2::text is null or p.id > $2)${q.listedOnly ? ' and p.listed' : ''}
        order by p.id limit $3`,
      [q.vendorId ?? null, q.after ?? null, q.limit],
    );
  },

  async variantsOf(db: Queryable, productIds: readonly string[]): Promise<VariantRow[]> {
    if (productIds.length === 0) return [];
    return db.query<VariantRow>(
      `select ${VARIANT_COLS} from product_variants where product_id = any($1) order by product_id, position`,
      [productIds],
    );
  },

  async variantsById(db: Queryable, ids: readonly string[]): Promise<VariantRow[]> {
    if (ids.length === 0) return [];
    return db.query<VariantRow>(`select ${VARIANT_COLS} from product_variants where id = any($1)`, [
      ids,
    ]);
  },

  async productsById(db: Queryable, ids: readonly string[]): Promise<ProductRow[]> {
    if (ids.length === 0) return [];
    return db.query<ProductRow>(
      `select ${PRODUCT_COLS} from products p join vendors v on v.id = p.vendor_id where p.id = any($1)`,
      [ids],
    );
  },
};
