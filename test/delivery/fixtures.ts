/** A valid recipient-pays order in Accra; override what a test is about. */
export function orderBody(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    order_reference: `ref-${crypto.randomUUID()}`,
    customer: { name: 'Ama Mensah', phone: '024 123 4567' },
    delivery: {
      address: '12 Oxford Street',
      city: 'Accra',
      region: 'Greater Accra',
      coordinates: { lat: 5.556, lng: -0.182 },
    },
    item: 'Two pairs of sandals',
    pickup: {
      contact_person: 'Kofi Boateng',
      contact_phone: '0201234567',
      address: 'Makola Market',
      coordinates: { lat: 5.549, lng: -0.209 },
    },
    ...overrides,
  };
}

export const EAST_LEGON = { lat: 5.635, lng: -0.161 };
export const ACCRA_CENTRAL = { lat: 5.5502, lng: -0.2174 };
