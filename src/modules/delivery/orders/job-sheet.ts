import type { Queryable } from '../../../platform/db/index.ts';
import { digitalAddressArea, parseDigitalAddress } from '../domain/index.ts';

/** What a courier needs to carry out an order: where to collect, where to deliver, what and for how much. */
export interface JobSheet {
  id: string;
  item: string;
  fee_pesewas: number | null;
  pickup_contact_person: string;
  pickup_contact_phone: string;
  pickup_address: string | null;
  pickup_lat: number | null;
  pickup_lng: number | null;
  customer_name: string;
  customer_phone: string;
  delivery_address: string;
  delivery_city: string;
  delivery_lat: number | null;
  delivery_lng: number | null;
  /** GhanaPostGPS addresses with our area for them in words (e.g. "GA-183-8164 (Accra Metro, Greater Accra)"). */
  pickup_digital_address: string | null;
  delivery_digital_address: string | null;
}

/** The stored address with the area our table gives its prefix, for the courier to read. */
function withArea(value: string | null): string | null {
  const parsed = value === null ? null : parseDigitalAddress(value);
  return parsed ? `${parsed.value} (${digitalAddressArea(parsed)})` : value;
}

export const jobSheetRepository = {
  async find(q: Queryable, orderId: string): Promise<JobSheet | undefined> {
    const sheet = (
      await q.query<JobSheet>(
        `select id, item, fee_pesewas, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng,
                customer_name, customer_phone, delivery_address, delivery_city, delivery_lat, delivery_lng,
                pickup_digital_address, delivery_digital_address
           from delivery_orders where id = $1`,
        [orderId],
      )
    )[0];
    if (!sheet) return undefined;
    return {
      ...sheet,
      pickup_digital_address: withArea(sheet.pickup_digital_address),
      delivery_digital_address: withArea(sheet.delivery_digital_address),
    };
  },
};
