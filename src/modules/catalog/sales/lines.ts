import type { Queryable } from '../../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../../platform/errors.ts';
import type { CheckoutLine } from '../../../integrations/payments/gateway.ts';
import { catalogRepository as catalog, type VendorRow } from '../products/repository.ts';
import type { SaleRow } from './repository.ts';

export interface ItemInput {
  product_id: string;
  variant_id: string;
  quantity: number;
}

export interface Line {
  /** Position in the request's `items`, for error details. */
  index: number;
  product_id: string;
  variant_id: string;
  title: string;
  label: string;
  quantity: number;
  unit_price_pesewas: number;
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * The order's lines priced from the catalog (the caller never supplies prices). Items of another
 * vendor answer 400 VALIDATION_ERROR; unknown or unlisted products (inactive, or a vendor that is
 * not syndicatable) and unknown variants answer 404 PRODUCT_NOT_FOUND; details name each item.
 */
export async function priceLines(
  db: Queryable,
  vendorId: string,
  items: readonly ItemInput[],
): Promise<{ vendor: VendorRow; lines: Line[]; subtotal: number }> {
  const [vendor, products, variants] = await Promise.all([
    catalog.getVendor(db, vendorId),
    catalog.productsById(db, unique(items.map((i) => i.product_id))),
    catalog.variantsById(db, unique(items.map((i) => i.variant_id))),
  ]);
  const productOf = new Map(products.map((p) => [p.id, p]));
  const variantOf = new Map(variants.map((v) => [v.id, v]));
  const missing: ErrorDetail[] = [];
  const foreign: ErrorDetail[] = [];
  const lines: Line[] = [];
  items.forEach((item, index) => {
    const product = productOf.get(item.product_id);
    if (!product?.listed) {
      missing.push({
        field: `items.${index}.product_id`,
        issue: `${item.product_id} is not in the catalog (unknown, inactive, or its vendor is not syndicated)`,
      });
      return;
    }
    if (product.vendor_id !== vendorId) {
      foreign.push({
        field: `items.${index}.product_id`,
        issue: `belongs to vendor ${product.vendor_id}, not ${vendorId}; an order has one vendor`,
      });
      return;
    }
    const variant = variantOf.get(item.variant_id);
    if (!variant || variant.product_id !== product.id) {
      missing.push({
        field: `items.${index}.variant_id`,
        issue: `${item.variant_id} is not a variant of ${product.id}`,
      });
      return;
    }
    lines.push({
      index,
      product_id: product.id,
      variant_id: variant.id,
      title: product.title,
      label: variant.label,
      quantity: item.quantity,
      unit_price_pesewas: variant.price_pesewas,
    });
  });
  if (foreign.length > 0)
    throw errors.validation(`${foreign[0]!.field} ${foreign[0]!.issue}.`, foreign);
  if (missing.length > 0)
    throw errors.productNotFound(`${missing[0]!.field}: ${missing[0]!.issue}.`, missing);
  // Listed products imply a syndicated vendor; this catches a syndication flip between the reads.
  if (!vendor?.syndicatable) {
    throw errors.productNotFound('vendor_id is not a syndicated vendor.', [
      { field: 'vendor_id', issue: 'is not a syndicated vendor' },
    ]);
  }
  return {
    vendor,
    lines,
    subtotal: lines.reduce((sum, l) => sum + l.unit_price_pesewas * l.quantity, 0),
  };
}

/** The bill the buyer sees at the gateway: each line, the delivery fee, and the reseller's markup when there is one. */
export function checkoutLines(
  lines: readonly Line[],
  sale: Pick<SaleRow, 'delivery_fee_pesewas' | 'markup_pesewas'>,
): CheckoutLine[] {
  return [
    ...lines.map((l) => ({
      description: `${l.title} (${l.label})`,
      quantity: l.quantity,
      unitPesewas: l.unit_price_pesewas,
    })),
    { description: 'Delivery fee', quantity: 1, unitPesewas: sale.delivery_fee_pesewas },
    ...(sale.markup_pesewas > 0
      ? [{ description: 'Reseller markup', quantity: 1, unitPesewas: sale.markup_pesewas }]
      : []),
  ];
}
