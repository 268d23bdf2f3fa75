import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../../platform/http/schemas.ts';

export const STATES = [
  'awaiting_payment',
  'awaiting_delivery',
  'confirmed',
  'failed',
  'on_hold',
] as const;
export const PAYMENT_STATUSES = [
  'pending',
  'paid',
  'collected',
  'declined',
  'expired',
  'not_collected',
  'refund_due',
  'not_started',
  'amount_mismatch',
  'refunded',
] as const;
export const Ghs = (description: string) => Type.Number({ description });
export const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(
  t: T,
) => Type.Union([t, Type.Null()]);

export const Money = {
  subtotal_ghs: Ghs('Sum of unit price times quantity'),
  delivery_fee_ghs: Ghs('Delivery fee, from the vendor pickup point to the buyer'),
  markup_ghs: Ghs('Reseller markup; always 0 for cod'),
  total_ghs: Ghs(
    'online: subtotal + fee + markup, charged through the gateway; cod: subtotal + fee, collected in cash',
  ),
};

export const PaymentStatus = StringEnum(
  PAYMENT_STATUSES,
  'pending (awaiting payment or cash), paid (gateway), collected (cash), declined, expired (checkout lapsed), not_collected (cod delivery ended without it), refund_due (paid, then its delivery was cancelled, or paid after the order had failed; see refund_due_ghs), not_started (an attempt answered 4xx or 502), amount_mismatch (the gateway collected another amount than total_ghs: the order is on_hold for review), refunded (what was owed went back to the buyer; see refund)',
);

export const EXAMPLE_ORDER = {
  payment_method: 'online',
  vendor_id: 'ven_01JD2WZ3C7Q9R1M5T8V2X4Y6ZA',
  items: [
    {
      product_id: 'prd_01JD2X5V8T3N0Q6W4RZK7B9MPE',
      variant_id: 'var_01JD2X5V8T3N0Q6W4RZK7B9MPF',
      quantity: 2,
    },
  ],
  buyer: { name: 'Ama Mensah', phone: '024 123 4567' },
  delivery: {
    address: '12 Lagos Avenue, East Legon, Accra',
    coordinates: { lat: 5.635, lng: -0.161 },
  },
  reseller_markup_ghs: 20,
  external_reference: 'shop-order-5512',
};
export const { reseller_markup_ghs: _markup, ...COD_ORDER } = {
  ...EXAMPLE_ORDER,
  payment_method: 'cod',
  external_reference: 'shop-order-5513',
};
export const SALE_ID = 'sale_01JD2Y0A1B2C3D4E5F6G7H8J9K';
