import { defineOperation } from '../../../../platform/http/operation.ts';
import { SafeSuccess } from '../../../../platform/http/openapi-shapes.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import type { CatalogService } from '../service.ts';
import { productView } from '../views.ts';
import { CatalogProduct, PRODUCT_EXAMPLE, Text } from './product-schema.ts';

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
    description:
      'Answers 404 `PRODUCT_NOT_FOUND` unless the product exists, is active and its vendor is syndicatable.',
    response: SafeSuccess(CatalogProduct),
    examples: [
      {
        name: 'product',
        summary: 'A product with two variants',
        query: { product_id: PRODUCT_EXAMPLE.product_id },
        response: { status: 'success', data: PRODUCT_EXAMPLE },
      },
    ],
    handler: async ({ query }) => ({
      body: { status: 'success', data: productView(await catalog.get(query.product_id)) },
    }),
  });
