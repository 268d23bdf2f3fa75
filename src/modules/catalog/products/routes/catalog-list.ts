import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import type { CatalogService } from '../service.ts';
import { productView } from '../views.ts';
import { CatalogProduct, PRODUCT_EXAMPLE, Text } from './product-schema.ts';

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
      vendor_id: Type.Optional(Text("Only this vendor's products")),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: 'Page size: default 50; values above 200 are treated as 200',
        }),
      ),
      cursor: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'next_cursor of the previous page',
        }),
      ),
    }),
    description:
      'Only active products of vendors that opted into syndication, ordered by `product_id` (a stable order). `count` is the number of products in this page. Pass `next_cursor` back as `cursor` for the next page; it is null on the last page.',
    response: SafeSuccess(
      Type.Object({
        products: Type.Array(CatalogProduct),
        count: Type.Integer({ description: 'Products in this page' }),
        next_cursor: Type.Union([Type.String(), Type.Null()], {
          description: 'Cursor of the next page; null on the last one',
        }),
      }),
    ),
    examples: [
      {
        name: 'first_page',
        summary: 'A first page of one product',
        query: { limit: 1 },
        response: {
          status: 'success',
          data: {
            products: [PRODUCT_EXAMPLE],
            count: 1,
            next_cursor: 'cDE6cHJkXzAxSkQyWDVWOFQzTjBRNlc0UlpLN0I5TVBF',
          },
        },
      },
    ],
    handler: async ({ query }) => {
      const { products, nextCursor } = await catalog.list({
        vendorId: query.vendor_id,
        limit: query.limit,
        cursor: query.cursor,
      });
      return {
        body: {
          status: 'success',
          data: {
            products: products.map(productView),
            count: products.length,
            next_cursor: nextCursor,
          },
        },
      };
    },
  });
