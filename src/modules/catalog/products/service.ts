import type { Db, Queryable } from '../../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { ghsToPesewas } from '../../../platform/money.ts';
import {
  isInGhana,
  isValidLatLng,
  normalizeGhanaPhone,
  type LatLng,
} from '../../../shared/ghana/index.ts';
import { decodeCursor, encodeCursor } from '../domain/places.ts';
import { rateToBps } from '../domain/money.ts';
import {
  catalogRepository as repo,
  type CatalogProductRow,
  type ProductValues,
  type VendorRow,
  type VendorValues,
} from './repository.ts';
import { groupVariants, type ProductWithVariants } from './views.ts';

export const DEFAULT_PAGE = 50;
/** catalog.list caps larger limits here instead of refusing them (the contract's maximum). */
export const MAX_PAGE = 200;

export interface PickupInput {
  contact_person?: string;
  contact_phone?: string;
  address?: string;
  coordinates?: LatLng;
}

export interface VendorInput {
  name?: string;
  syndicatable?: boolean;
  commission_rate?: number;
  pickup?: PickupInput;
}

export interface ProductInput {
  vendor_id: string;
  title: string;
  description: string;
  images: string[];
  category: string | null;
  active: boolean;
  variants: Array<{ label: string; price_ghs: number; stock: number }>;
}

export interface ProductPatch {
  active?: boolean;
  title?: string;
  description?: string;
  images?: string[];
  category?: string | null;
  variants?: Array<{ variant_id: string; stock?: number; price_ghs?: number; in_stock?: boolean }>;
}

function invalid(details: ErrorDetail[]): never {
  throw errors.validation(`${details[0]!.field} ${details[0]!.issue}.`, details);
}

const productNotFound = () =>
  errors.productNotFound('No product with this product_id is in the catalog.');

/** Trimmed text, or undefined with a detail when it is blank. */
function text(value: string, field: string, details: ErrorDetail[]): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) details.push({ field, issue: 'must not be blank' });
  return trimmed || undefined;
}

/** Price in GHS → pesewas, or a detail explaining why not. */
function price(ghs: number, field: string, details: ErrorDetail[]): number {
  const p = ghsToPesewas(ghs);
  if (p === null || p <= 0)
    details.push({ field, issue: 'must be an amount above 0 with at most 2 decimals' });
  return p ?? 0;
}

/** Vendors and products: the partner catalog reads (design: Safe-catalog orders) and the operator writes (design: Operator API). */
export class CatalogService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  // Partner reads: only listed products (active, vendor syndicatable).

  async list(q: { vendorId?: string; limit?: number; cursor?: string }) {
    const limit = Math.min(q.limit ?? DEFAULT_PAGE, MAX_PAGE);
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    if (after === null)
      invalid([{ field: 'cursor', issue: 'is not a cursor this service issued' }]);
    // One extra row says whether another page exists, so next_cursor is null on the last page.
    const rows = await repo.page(this.db, {
      vendorId: q.vendorId,
      after,
      limit: limit + 1,
      listedOnly: true,
    });
    const page = rows.slice(0, limit);
    return {
      products: await this.withVariants(page),
      nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
    };
  }

  async get(productId: string) {
    const product = await repo.getProduct(this.db, productId, { listedOnly: true });
    if (!product) throw productNotFound();
    return { product, variants: await repo.variantsOf(this.db, [product.id]) };
  }

  // Operator API.

  async createVendor(
    input: Required<Omit<VendorInput, 'pickup'>> & { pickup: Required<PickupInput> },
  ) {
    const values = this.vendorValues(input) as VendorValues;
    return repo.insertVendor(this.db, newId('ven'), values, this.now());
  }

  /**
   * `changed`, when given, runs in the change's own transaction with the vendor as it was (row
   * locked) and as it is now: the console writes its audit entry there, so both commit or neither.
   */
  async updateVendor(
    vendorId: string,
    patch: VendorInput,
    changed?: (tx: Queryable, before: VendorRow, after: VendorRow) => Promise<void>,
  ) {
    const values = this.vendorValues(patch);
    const row = await this.db.transaction(async (tx) => {
      const before = changed ? await repo.getVendor(tx, vendorId, 'update') : undefined;
      if (changed && !before) return undefined;
      const updated = await repo.updateVendor(tx, vendorId, values, this.now());
      if (updated && values.syndicatable !== undefined)
        await repo.relistVendorProducts(tx, vendorId, this.now());
      if (updated && before) await changed!(tx, before, updated);
      return updated;
    });
    if (!row) throw errors.notFound(`There is no vendor ${vendorId}.`);
    return row;
  }

  /** The vendor's pickup contact phone, or undefined when there is no such vendor. */
  async vendorPhone(vendorId: string): Promise<string | undefined> {
    return (await repo.getVendor(this.db, vendorId))?.pickup_contact_phone;
  }

  async getVendor(vendorId: string) {
    const row = await repo.getVendor(this.db, vendorId);
    if (!row) throw errors.notFound(`There is no vendor ${vendorId}.`);
    return row;
  }

  async listVendors(limit: number, after: string | undefined) {
    const rows = await repo.listVendors(this.db, limit, after);
    return { vendors: rows, nextAfter: rows.length === limit ? rows.at(-1)!.id : null };
  }

  async createProduct(input: ProductInput) {
    const details: ErrorDetail[] = [];
    const variants = input.variants.map((v, i) => ({
      id: newId('var'),
      label: text(v.label, `variants.${i}.label`, details) ?? '',
      pricePesewas: price(v.price_ghs, `variants.${i}.price_ghs`, details),
      stock: v.stock,
    }));
    const values = this.productValues(input, details) as ProductValues;
    if (details.length > 0) invalid(details);
    const id = newId('prd');
    await this.db.transaction(async (tx) => {
      // Share-locked: a syndication flip waits, so `listed` is computed from the vendor as committed.
      const vendor = await repo.getVendor(tx, input.vendor_id, true);
      if (!vendor) invalid([{ field: 'vendor_id', issue: 'is not a known vendor' }]);
      await repo.insertProduct(tx, id, vendor, values, this.now());
      await repo.insertVariants(tx, id, variants, this.now());
    });
    return this.getProductAdmin(id);
  }

  async updateProduct(productId: string, patch: ProductPatch) {
    const details: ErrorDetail[] = [];
    const values = this.productValues(patch, details);
    const changes = (patch.variants ?? []).map((v, i) => ({
      ...v,
      index: i,
      pricePesewas:
        v.price_ghs === undefined
          ? undefined
          : price(v.price_ghs, `variants.${i}.price_ghs`, details),
    }));
    if (details.length > 0) invalid(details);
    const product = await repo.getProduct(this.db, productId, { listedOnly: false });
    if (!product) throw productNotFound();
    await this.db.transaction(async (tx) => {
      // Vendor first (share lock), as product creation does: a concurrent syndication flip waits
      // for this transaction or this one for it, never both for each other.
      const vendor = (await repo.getVendor(tx, product.vendor_id, true))!;
      await repo.updateProduct(tx, productId, values, vendor.syndicatable, this.now());
      for (const c of changes) {
        const variant = await repo.lockVariant(tx, productId, c.variant_id);
        if (!variant)
          invalid([
            { field: `variants.${c.index}.variant_id`, issue: 'is not a variant of this product' },
          ]);
        // Units held by open sales are part of the stock: it cannot drop below them.
        if (c.stock !== undefined && c.stock < variant.reserved) {
          invalid([
            {
              field: `variants.${c.index}.stock`,
              issue: `cannot be below the ${variant.reserved} units reserved by open orders`,
            },
          ]);
        }
        await repo.updateVariant(
          tx,
          variant.id,
          { stock: c.stock, price_pesewas: c.pricePesewas, sellable: c.in_stock },
          this.now(),
        );
      }
    });
    return this.getProductAdmin(productId);
  }

  async getProductAdmin(productId: string) {
    const product = await repo.getProduct(this.db, productId, { listedOnly: false });
    if (!product) throw productNotFound();
    return { product, variants: await repo.variantsOf(this.db, [product.id]) };
  }

  async listProductsAdmin(q: { vendorId?: string; limit: number; after?: string }) {
    const rows = await repo.page(this.db, {
      vendorId: q.vendorId,
      after: q.after,
      limit: q.limit,
      listedOnly: false,
    });
    return {
      products: await this.withVariants(rows),
      nextAfter: rows.length === q.limit ? rows.at(-1)!.id : null,
    };
  }

  private async withVariants<P extends CatalogProductRow>(
    products: readonly P[],
  ): Promise<Array<ProductWithVariants<P>>> {
    const variants = groupVariants(
      await repo.variantsOf(
        this.db,
        products.map((p) => p.id),
      ),
    );
    return products.map((product) => ({ product, variants: variants.get(product.id) ?? [] }));
  }

  async vendorCount(): Promise<number> {
    return repo.countVendors(this.db);
  }

  private now(): Date {
    return new Date(this.clock());
  }

  /** Checks and converts the vendor fields present (phone to E.164, rate to basis points). */
  private vendorValues(input: VendorInput): Partial<VendorValues> {
    const details: ErrorDetail[] = [];
    const out: Partial<VendorValues> = { syndicatable: input.syndicatable };
    if (input.name !== undefined) out.name = text(input.name, 'name', details);
    if (input.commission_rate !== undefined) {
      const bps = rateToBps(input.commission_rate);
      if (bps === null)
        details.push({
          field: 'commission_rate',
          issue: 'must be from 0 to 1 with at most 4 decimals (0.125 = 12.5%)',
        });
      else out.commission_bps = bps;
    }
    const p = input.pickup ?? {};
    if (p.contact_person !== undefined)
      out.pickup_contact_person = text(p.contact_person, 'pickup.contact_person', details);
    if (p.address !== undefined) out.pickup_address = text(p.address, 'pickup.address', details);
    if (p.contact_phone !== undefined) {
      const phone = normalizeGhanaPhone(p.contact_phone);
      if (!phone)
        details.push({
          field: 'pickup.contact_phone',
          issue: 'must be a Ghana phone number, e.g. 024 123 4567',
        });
      else out.pickup_contact_phone = phone;
    }
    if (p.coordinates !== undefined) {
      // Deliveries start here and are priced from here: the point must be one we serve.
      if (!isValidLatLng(p.coordinates) || !isInGhana(p.coordinates))
        details.push({ field: 'pickup.coordinates', issue: 'must be a point inside Ghana' });
      else Object.assign(out, { pickup_lat: p.coordinates.lat, pickup_lng: p.coordinates.lng });
    }
    if (details.length > 0) invalid(details);
    return out;
  }

  private productValues(
    input: Partial<ProductValues>,
    details: ErrorDetail[],
  ): Partial<ProductValues> {
    const out: Partial<ProductValues> = { active: input.active, images: input.images };
    if (input.title !== undefined) out.title = text(input.title, 'title', details);
    if (input.description !== undefined) out.description = input.description.trim();
    if (input.category !== undefined) out.category = input.category?.trim() || null;
    return out;
  }
}
