import { Type } from '@sinclair/typebox';

export const Text = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 64, ...(description ? { description } : {}) });

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
      in_stock: Type.Boolean({
        description: 'At least one unit is free (stock minus units held by open orders)',
      }),
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
    {
      variant_id: 'var_01JD2X5V8T3N0Q6W4RZK7B9MPF',
      label: 'Gold and green',
      price_ghs: 180,
      in_stock: true,
    },
    {
      variant_id: 'var_01JD2X5V8T3N0Q6W4RZK7B9MPG',
      label: 'Blue and silver',
      price_ghs: 195.5,
      in_stock: false,
    },
  ],
};
