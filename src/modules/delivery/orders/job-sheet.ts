import type { Queryable } from '../../../platform/db/index.ts';

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
}

export const jobSheetRepository = {
  async find(q: Queryable, orderId: string): Promise<JobSheet | undefined> {
    return (
      await q.query<JobSheet>(
        `select id, item, fee_pesewas, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng,
                customer_name, customer_phone, delivery_address, delivery_city, delivery_lat, delivery_lng
           from delivery_orders where id = $1`,
        [orderId],
      )
    )[0];
  },
};
