import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import type { CatalogService } from '../service.ts';

const Text = (description?: string) => Type.String({ minLength: 1, maxLength: 64, ...(description ? { description } : {}) });

/** The contract's Catalog product (documentation and docs tests). */
export const CatalogProduct = Type.Object({
  product_id: Type.String(),
  vendor_id: Type.String(),
  vendor_name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  images: Type.Array(Type.String({ description: 'Image URL' })),
  category: Type.Union([Type.String(), Type.Null()]),
  currency: Type.Literal('GHS'),
  variants: Type.Array(
    Type.Object({
      variant_id: Type.String(),
      label: Type.String(),
      price_ghs: Type.Number({ description: 'Unit price in GHS, at most 2 decimals' }),
      in_stock: Type.Boolean({ description: 'At least one unit is free (stock minus units held by open orders)' }),
    }),
  ),
});

export const PRODUCT_EXAMPLE = {
  product_id: 'prd_01JD2X5V8T3N0Q6W4RZK7B9MPE',
  vendor_id: 'ven_01JD2WZ3C7Q9R1M5T8V2X4Y6ZA',
  vendor_name: 'Makola Kente House',
  title: 'Handwoven kente stole',
  description: 'Bonwire kente, 2 m, cotton and rayon.',
  images: ['https://images.example.com/kente-stole.jpg'],
  category: 'Fashion',
  currency: 'GHS',
  variants: [
    { variant_id: 'var_01JD2X5V8T3N0Q6W4RZK7B9MPF', label: 'Gold and green', price_ghs: 180, in_stock: true },
    { variant_id: 'var_01JD2X5V8T3N0Q6W4RZK7B9MPG', label: 'Blue and silver', price_ghs: 195.5, in_stock: false },
  ],
};

export const catalogList = (catalog: CatalogService) =>
  defineOperation({
    id: 'safe-catalog.catalog.list',
    service: 'safe-catalog',
    method: 'GET',
    path: '/api/v1/safe-catalog/catalog.list',
    summary: 'List products of syndicated vendors, a page at a time',
    scope: 'safe:read',
    access: 'read',
    querystring: strictObject({
      vendor_id: Type.Optional(Text('Only this vendor\'s products')),
      limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Page size: default 50; values above 200 are treated as 200' })),
      cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page' })),
    }),
    description:
      'Only active products of vendors that opted into syndication, ordered by `product_id` (a stable order). `count` is the number of products in this page. Pass `next_cursor` back as `cursor` for the next page; it is null on the last page.',
    response: SafeSuccess(
      Type.Object({
        products: Type.Array(CatalogProduct),
        count: Type.Integer({ description: 'Products in this page' }),
        next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Cursor of the next page; null on the last one' }),
      }),
    ),
    examples: [
      {
        name: 'first_page',
        summary: 'A first page of one product',
        query: { limit: 1 },
        response: { status: 'success', data: { products: [PRODUCT_EXAMPLE], count: 1, next_cursor: 'cDE6cHJkXzAxSkQyWDVWOFQzTjBRNlc0UlpLN0I5TVBF' } },
      },
    ],
    handler: async ({ query }) => ({
      body: { status: 'success', data: await catalog.list({ vendorId: query.vendor_id, limit: query.limit, cursor: query.cursor }) },
    }),
  });

export const catalogGet = (catalog: CatalogService) =>
  defineOperation({
    id: 'safe-catalog.catalog.get',
    service: 'safe-catalog',
    method: 'GET',
    path: '/api/v1/safe-catalog/catalog.get',
    summary: 'Get one product of a syndicated vendor',
    scope: 'safe:read',
    access: 'read',
    querystring: strictObject({ product_id: Text() }),
    errorCodes: ['PRODUCT_NOT_FOUND'],
    description: 'Answers 404 `PRODUCT_NOT_FOUND` unless the product exists, is active and its vendor is syndicatable.',
    response: SafeSuccess(CatalogProduct),
    examples: [{ name: 'product', summary: 'A product with two variants', query: { product_id: PRODUCT_EXAMPLE.product_id }, response: { status: 'success', data: PRODUCT_EXAMPLE } }],
    handler: async ({ query }) => ({ body: { status: 'success', data: await catalog.get(query.product_id) } }),
  });
