import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../../platform/http/admin.ts';
import {
  FreeText,
  HttpUrl,
  Id,
  NonEmptyString,
  strictObject,
} from '../../../../platform/http/schemas.ts';
import type { CatalogService } from '../service.ts';
import { adminProductView, vendorView } from '../views.ts';

const Coordinates = strictObject({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});

// Members are checked by the service (Ghana phone, point inside Ghana, rate decimals).
const pickupFields = {
  contact_person: NonEmptyString(),
  contact_phone: NonEmptyString(32),
  address: NonEmptyString(500),
  coordinates: Coordinates,
};
const Rate = Type.Number({
  minimum: 0,
  maximum: 1,
  description: "Platform's share of the subtotal, 0 to 1 (0.1 = 10%), at most 4 decimals",
});
const Price = Type.Number({
  exclusiveMinimum: 0,
  maximum: 1_000_000,
  description: 'GHS, at most 2 decimals',
});
const Stock = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  description: 'Units the vendor holds, including those reserved by open orders',
});
const Category = Type.Union([NonEmptyString(100), Type.Null()]);
const Images = Type.Array(HttpUrl, { maxItems: 20 });
const Page = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  after: Type.Optional(Id),
};

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export const catalogAdminRoutes = (catalog: CatalogService) => [
  defineAdminRoute({
    method: 'POST',
    url: '/vendors',
    audit: { action: 'vendor.create' },
    summary: 'Add a vendor with its pickup point and commission rate',
    body: strictObject({
      name: NonEmptyString(),
      syndicatable: Type.Boolean(),
      commission_rate: Rate,
      pickup: strictObject(pickupFields),
    }),
    handler: async ({ body }) => ({
      statusCode: 201,
      body: vendorView(await catalog.createVendor(body)),
    }),
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/vendors/:vendor_id',
    audit: { action: 'vendor.update' },
    summary:
      'Change any vendor field; turning syndication off takes its products out of the partner catalog at once',
    params: strictObject({ vendor_id: Id }),
    body: strictObject({
      name: Type.Optional(NonEmptyString()),
      syndicatable: Type.Optional(Type.Boolean()),
      commission_rate: Type.Optional(Rate),
      pickup: Type.Optional(
        strictObject({
          contact_person: Type.Optional(pickupFields.contact_person),
          contact_phone: Type.Optional(pickupFields.contact_phone),
          address: Type.Optional(pickupFields.address),
          coordinates: Type.Optional(pickupFields.coordinates),
        }),
      ),
    }),
    handler: async ({ params, body }) => ({
      body: vendorView(await catalog.updateVendor(params.vendor_id, body)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/vendors',
    summary: 'List vendors (oldest first, paged by `after`)',
    querystring: strictObject(Page),
    handler: async ({ query }) => {
      const { vendors, nextAfter } = await catalog.listVendors(query.limit ?? 50, query.after);
      return { body: { vendors: vendors.map(vendorView), next_after: nextAfter } };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/vendors/:vendor_id',
    summary: 'Get a vendor',
    params: strictObject({ vendor_id: Id }),
    handler: async ({ params }) => ({
      body: vendorView(await catalog.getVendor(params.vendor_id)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/products',
    audit: { action: 'product.create' },
    summary:
      'Add a product with its variants (prices in GHS); answers the catalog product plus stock per variant',
    body: strictObject({
      vendor_id: Id,
      title: NonEmptyString(),
      description: FreeText(5000),
      images: Images,
      category: Category,
      active: Type.Boolean(),
      variants: Type.Array(
        strictObject({ label: NonEmptyString(100), price_ghs: Price, stock: Stock }),
        { minItems: 1, maxItems: 50 },
      ),
    }),
    handler: async ({ body }) => ({
      statusCode: 201,
      body: adminProductView(await catalog.createProduct(body)),
    }),
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/products/:product_id',
    audit: { action: 'product.update' },
    summary: 'Switch a product on or off, edit it, or set variant stock, price and in_stock',
    params: strictObject({ product_id: Id }),
    body: strictObject({
      active: Type.Optional(Type.Boolean()),
      title: Type.Optional(NonEmptyString()),
      description: Type.Optional(FreeText(5000)),
      images: Type.Optional(Images),
      category: Type.Optional(Category),
      variants: Type.Optional(
        Type.Array(
          strictObject({
            variant_id: Id,
            stock: Type.Optional(Stock),
            price_ghs: Type.Optional(Price),
            in_stock: Type.Optional(
              Type.Boolean({
                description:
                  'false stops sales of the variant whatever its stock; true allows them again',
              }),
            ),
          }),
          { maxItems: 50 },
        ),
      ),
    }),
    handler: async ({ params, body }) => ({
      body: adminProductView(await catalog.updateProduct(params.product_id, body)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/products',
    summary: 'List products, listed or not, with stock (oldest first, paged by `after`)',
    querystring: strictObject({ vendor_id: Type.Optional(Id), ...Page }),
    handler: async ({ query }) => {
      const { products, nextAfter } = await catalog.listProductsAdmin({
        vendorId: query.vendor_id,
        limit: query.limit ?? 50,
        after: query.after,
      });
      return { body: { products: products.map(adminProductView), next_after: nextAfter } };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/products/:product_id',
    summary: 'Get a product with its switches and stock',
    params: strictObject({ product_id: Id }),
    handler: async ({ params }) => ({
      body: adminProductView(await catalog.getProductAdmin(params.product_id)),
    }),
  }),
];
