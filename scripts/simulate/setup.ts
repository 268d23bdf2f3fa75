import { PartnerClient } from '@partner-platform/sdk';
import type { LatLng } from '../../src/shared/ghana/index.ts';
import type { Random, SimClock } from './clock.ts';
import type { SimOptions } from './options.ts';
import type { SimServer } from './server.ts';
import { around, CENTRE, type SimVehicle, simPhone } from './world.ts';

/** A partner's production key: places delivery orders and sales (safe:write is never implied). */
const SCOPES = ['safe:read', 'safe:write', 'delivery:read', 'delivery:write'];

export interface SimPartner {
  id: string;
  client: PartnerClient;
  /** Where this partner's own delivery orders are picked up (its shop). */
  shop: LatLng;
}

export interface SimVendor {
  id: string;
  pickup: LatLng;
  productId: string;
  variants: Array<{ id: string; pesewas: number }>;
}

export interface SimCourierAccount {
  id: string;
  name: string;
  phone: string;
  vehicle: SimVehicle;
}

export interface Cast {
  /** A finance operator other than the admin: the second pair of eyes on money out. */
  checkerToken: string;
  partners: SimPartner[];
  vendors: SimVendor[];
  couriers: SimCourierAccount[];
}

const LAST = ['Mensah', 'Owusu', 'Boateng', 'Asante', 'Osei', 'Addo', 'Appiah', 'Darko'];
const FIRST = ['Kojo', 'Ama', 'Yaw', 'Akosua', 'Kwame', 'Efua', 'Kofi', 'Abena', 'Kwesi', 'Adwoa'];

/** The people of the day, made through the admin API as operators make them. */
export async function cast(s: SimServer, o: SimOptions, r: Random, clock: SimClock): Promise<Cast> {
  const checker = await s.admin('POST', '/operators', {
    email: `finance-${r.next().toString(36).slice(2)}@sim.example.com`,
    name: 'Esi Finance',
    password: 'simulated day pass phrase',
    roles: ['finance'],
  });
  const token = await s.admin('POST', `/operators/${checker.operator_id}/tokens`, { name: 'sim' });
  const checkerToken = token.token as string;
  const partners: SimPartner[] = [];
  for (let i = 0; i < o.partners; i++) partners.push(await partner(s, r, clock, i, checkerToken));
  const vendors: SimVendor[] = [];
  for (let i = 0; i < o.vendors; i++) vendors.push(await vendor(s, r, i, checkerToken));
  const couriers: SimCourierAccount[] = [];
  for (let i = 0; i < o.couriers; i++) {
    const vehicle: SimVehicle = i % 10 === 9 ? 'car' : 'motorbike';
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    const phone = simPhone('024', o.seed);
    const c = await s.admin('POST', '/couriers', {
      name,
      phone,
      vehicle,
      zones: ['greater-accra'],
    });
    couriers.push({ id: c.courier_id, name, phone, vehicle });
  }
  return { checkerToken, partners, vendors, couriers };
}

async function partner(
  s: SimServer,
  r: Random,
  clock: SimClock,
  i: number,
  checkerToken: string,
): Promise<SimPartner> {
  const p = await s.admin('POST', '/partners', { name: `Sim Shop ${i + 1}` });
  await s.admin('PATCH', `/partners/${p.partner_id}`, {
    production_active: true,
    rate_limits: { reads_per_minute: 100_000, writes_per_minute: 100_000 },
  });
  const app = await s.admin('POST', `/partners/${p.partner_id}/apps`, { name: 'Shop app' });
  const key = await s.admin('POST', `/apps/${app.app_id}/keys`, {
    environment: 'production',
    scopes: SCOPES,
  });
  await destination(s, 'partner', p.partner_id, `Sim Shop ${i + 1}`, checkerToken);
  const client = new PartnerClient({
    apiKey: key.api_key,
    signingSecret: key.signing_secret,
    baseUrl: s.url,
    // Signed with the simulated time the server checks timestamps against.
    now: clock.now,
    maxRetries: 0,
  });
  return { id: p.partner_id, client, shop: around(r, CENTRE, 0.5, 4) };
}

async function vendor(
  s: SimServer,
  r: Random,
  i: number,
  checkerToken: string,
): Promise<SimVendor> {
  const pickup = around(r, CENTRE, 0.5, 4);
  const v = await s.admin('POST', '/vendors', {
    name: `Sim Vendor ${i + 1}`,
    syndicatable: true,
    commission_rate: 0.1,
    pickup: {
      contact_person: `${FIRST[i % FIRST.length]} Vendor`,
      contact_phone: simPhone('020', i),
      address: `Shop ${i + 1}, Accra`,
      coordinates: pickup,
    },
  });
  const product = await s.admin('POST', '/products', {
    vendor_id: v.vendor_id,
    title: `Sim product ${i + 1}`,
    description: 'A simulated product.',
    images: ['https://images.example.com/sim.jpg'],
    category: 'Fashion',
    active: true,
    variants: [
      { label: 'Small', price_ghs: 45 + 5 * i, stock: 100_000 },
      { label: 'Large', price_ghs: 120 + 10 * i, stock: 100_000 },
    ],
  });
  await destination(s, 'vendor', v.vendor_id, `Sim Vendor ${i + 1}`, checkerToken);
  // Half the vendors are paid after each cash handover (same day), half by the day's run.
  if (i % 2 === 1)
    await s.admin('POST', `/payees/vendor/${v.vendor_id}/schedule`, { schedule: 'same_day' });
  return {
    id: v.vendor_id,
    pickup,
    productId: product.product_id,
    variants: product.variants.map((x: { variant_id: string; price_ghs: number }) => ({
      id: x.variant_id,
      pesewas: Math.round(x.price_ghs * 100),
    })),
  };
}

/** A mobile money destination, proposed by the admin and approved by the second finance operator. */
async function destination(
  s: SimServer,
  kind: 'vendor' | 'partner',
  id: string,
  name: string,
  checkerToken: string,
): Promise<void> {
  const proposed = await s.admin('POST', `/payees/${kind}/${id}/destination`, {
    kind: 'mobile_money',
    network: 'mtn',
    number: walletNumber(),
    name,
  });
  await s.admin(
    'POST',
    `/payees/${kind}/${id}/destination/approve`,
    { change_id: proposed.pending_change.change_id },
    checkerToken,
  );
}

/** A wallet number the sandbox provider pays (numbers ending 95 to 99 are its refusals and failures). */
function walletNumber(): string {
  for (;;) {
    const n = simPhone('024', 77);
    if (Number(n.slice(-2)) < 95) return n;
  }
}
