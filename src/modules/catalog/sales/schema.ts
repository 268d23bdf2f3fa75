import { Type, type Static } from '@sinclair/typebox';
import { Coordinates, StringEnum, strictObject } from '../../../platform/http/schemas.ts';

const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

/** The contract's safe-catalog order; unknown properties answer 400 VALIDATION_ERROR (design: Response shapes). */
export const CreateSaleBody = strictObject({
  payment_method: StringEnum(
    ['online', 'cod'] as const,
    'online: gateway checkout; cod: cash on delivery',
  ),
  vendor_id: text(64, 'Every item must belong to this vendor'),
  items: Type.Array(
    strictObject({
      product_id: text(64),
      variant_id: text(64),
      quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
    }),
    { minItems: 1, maxItems: 50 },
  ),
  buyer: strictObject({
    name: text(200),
    phone: text(32, 'Ghana phone number, e.g. 024 123 4567'),
  }),
  delivery: strictObject({
    address: text(500, 'Used to quote the delivery fee when no coordinates or area are given'),
    coordinates: Type.Optional(
      strictObject(
        Coordinates.properties,
        'The canonical form (as on delivery orders): the most accurate fee. Sent with lat/lng too, they must agree (else 400 CONFLICTING_COORDINATES)',
      ),
    ),
    lat: Type.Optional(
      Type.Number({
        minimum: -90,
        maximum: 90,
        description: 'With lng: the older form of coordinates, still accepted',
      }),
    ),
    lng: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    area_id: Type.Optional(text(64, 'An id from delivery locations.list')),
  }),
  reseller_markup_ghs: Type.Optional(
    Type.Number({
      minimum: 0,
      description: 'Default 0; at most the subtotal; must be 0 or absent with cod',
    }),
  ),
  external_reference: Type.String({
    minLength: 3,
    maxLength: 64,
    description: 'Your order id: unique per app and environment among created orders',
  }),
});
export type CreateSaleInput = Static<typeof CreateSaleBody>;

export const SaleIdBody = strictObject({ sale_id: text(64) });
