import { pesewasToGhs } from '../../../platform/money.ts';
import { bpsToRate } from '../domain/money.ts';
import type { CatalogProductRow, ProductRow, VariantRow, VendorRow } from './repository.ts';

/** A product with its variants, as the service answers it; each route shapes it for its audience. */
export interface ProductWithVariants<P extends CatalogProductRow = ProductRow> {
  product: P;
  variants: readonly VariantRow[];
}

const inStock = (v: VariantRow) => v.sellable && v.stock - v.reserved > 0;

/** The contract's Catalog product. */
export function productView({ product: p, variants }: ProductWithVariants<CatalogProductRow>) {
  return {
    product_id: p.id,
    vendor_id: p.vendor_id,
    vendor_name: p.vendor_name,
    title: p.title,
    description: p.description,
    images: p.images,
    category: p.category,
    currency: 'GHS' as const,
    variants: variants.map((v) => ({
      variant_id: v.id,
      label: v.label,
      price_ghs: pesewasToGhs(v.price_pesewas),
      in_stock: inStock(v),
    })),
  };
}

/** Operators see the catalog product plus its switches and the stock behind `in_stock`. */
export function adminProductView(pv: ProductWithVariants) {
  const { product: p, variants } = pv;
  const base = productView(pv);
  return {
    ...base,
    active: p.active,
    listed: p.listed,
    variants: base.variants.map((view, i) => {
      const v = variants[i]!;
      return {
        ...view,
        stock: v.stock,
        reserved: v.reserved,
        available: v.stock - v.reserved,
        sellable: v.sellable,
      };
    }),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export function vendorView(v: VendorRow) {
  return {
    vendor_id: v.id,
    name: v.name,
    syndicatable: v.syndicatable,
    commission_rate: bpsToRate(v.commission_bps),
    pickup: {
      contact_person: v.pickup_contact_person,
      contact_phone: v.pickup_contact_phone,
      address: v.pickup_address,
      coordinates: { lat: v.pickup_lat, lng: v.pickup_lng },
    },
    created_at: v.created_at.toISOString(),
    updated_at: v.updated_at.toISOString(),
  };
}

/** Variants grouped by product, in each product's own order. */
export function groupVariants(variants: readonly VariantRow[]): Map<string, VariantRow[]> {
  const out = new Map<string, VariantRow[]>();
  for (const v of variants) {
    const group = out.get(v.product_id);
    if (group) group.push(v);
    else out.set(v.product_id, [v]);
  }
  return out;
}
