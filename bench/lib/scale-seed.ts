/**
 * The scale suite's data, written straight through SQL in the modules' table shapes (set-based:
 * generate_series, one statement per table and step): 100 partners with an app each, orders with
 * their timelines spread over them, couriers on duty with a signed-in session each, a backlog of
 * pending webhook events, and a dashboard member and a console operator with sessions.
 */
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';

export const PARTNERS = 100;
/** Seconds between two consecutive orders' created_at: 1M orders span about 58 days back from now. */
const ORDER_SPACING_S = 5;
const ACCRA = { lat: 5.6037, lng: -0.187 };

/** Ids as newId(prefix) makes them (prefix, '_', 26 capitals or digits), numbered. */
const idSql = (prefix: string, n: string) => `'${prefix}_0SCALE' || lpad((${n})::text, 20, '0')`;
export const scaleId = (prefix: string, n: number) =>
  `${prefix}_0SCALE${String(n).padStart(20, '0')}`;

/**
 * Each order's timeline by i % 20: 14 in 20 delivered, 2 placed, 1 cancelled, 1 in transit, 1 failed,
 * 1 returned; nothing is `returning`, the status filter that matches nothing.
 */
const PATHS = `case
  when i % 20 < 14 then array['placed','accepted','pickedUp','in_transit','delivered']
  when i % 20 < 16 then array['placed']
  when i % 20 = 16 then array['placed','cancelled']
  when i % 20 = 17 then array['placed','accepted','pickedUp','in_transit']
  when i % 20 = 18 then array['placed','accepted','pickedUp','in_transit','failed']
  else array['placed','accepted','pickedUp','in_transit','returning','returned'] end`;

export interface ScaleWorld {
  partnerIds: string[];
  appIds: string[];
  /** The seeded order the measured partner (index 0) owns, i-th of them. */
  ownedOrderId(k: number): string;
  /** Order references of the measured partner, for the reference search. */
  ownedReference(k: number): string;
  couriers: Array<{ id: string; cookie: string; csrf: string }>;
  memberCookie: string;
  operatorCookie: string;
}

/** Session rows as the sessions module writes them (sha-256 of the cookie's id), for a day. */
async function session(
  c: pg.Client,
  kind: 'member' | 'operator' | 'courier',
  subjects: string[],
): Promise<Array<{ id: string; csrf: string }>> {
  const rows = subjects.map(() => ({
    id: randomBytes(32).toString('base64url'),
    csrf: randomBytes(24).toString('base64url'),
  }));
  await c.query(
    `insert into web_sessions (id_hash, subject_kind, subject_id, csrf_token, created_at, last_seen_at, expires_at)
     select h, $1, s, t, now(), now(), now() + interval '1 day' from unnest($2::text[], $3::text[], $4::text[]) as u(h, s, t)`,
    [
      kind,
      rows.map((r) => createHash('sha256').update(r.id).digest('hex')),
      subjects,
      rows.map((r) => r.csrf),
    ],
  );
  return rows;
}

/**
 * Partners 2..100 and their apps (the first, with a key, comes from the operator API), a dashboard
 * owner of the first partner and a console admin, each signed in.
 */
export async function seedPeople(
  c: pg.Client,
  first: { partnerId: string; appId: string },
  cookies: { member: string; operator: string },
): Promise<Pick<ScaleWorld, 'partnerIds' | 'appIds' | 'memberCookie' | 'operatorCookie'>> {
  await c.query(
    `insert into partners (id, name, production_active) select ${idSql('par', 'g')}, 'Scale Partner ' || g, true from generate_series(2, $1::int) g`,
    [PARTNERS],
  );
  await c.query(
    `insert into apps (id, partner_id, name, webhook_url, webhook_secret_sealed)
     select ${idSql('app', 'g')}, ${idSql('par', 'g')}, 'Scale App', 'http://127.0.0.1:9/hook', 'x' from generate_series(2, $1::int) g`,
    [PARTNERS],
  );
  const partnerIds = [first.partnerId];
  const appIds = [first.appId];
  for (let g = 2; g <= PARTNERS; g++) {
    partnerIds.push(scaleId('par', g));
    appIds.push(scaleId('app', g));
  }
  const member = scaleId('mem', 1);
  await c.query(
    `insert into members (id, email, password_hash, email_verified_at) values ($1, 'scale-owner@example.com', 'x', now())`,
    [member],
  );
  await c.query(`insert into memberships (member_id, partner_id, role) values ($1, $2, 'owner')`, [
    member,
    first.partnerId,
  ]);
  const operator = scaleId('opr', 1);
  await c.query(
    `insert into operators (id, email, name, password_hash, roles, totp_confirmed) values ($1, 'scale-admin@example.com', 'Scale Admin', 'x', array['admin'], true)`,
    [operator],
  );
  const [m] = await session(c, 'member', [member]);
  const [o] = await session(c, 'operator', [operator]);
  return {
    partnerIds,
    appIds,
    memberCookie: `${cookies.member}=${m!.id}`,
    operatorCookie: `${cookies.operator}=${o!.id}`,
  };
}

/** Couriers on duty around Accra, each with a courier-app session. */
export async function seedCouriers(
  c: pg.Client,
  count: number,
  cookieName: string,
): Promise<ScaleWorld['couriers']> {
  await c.query(
    `insert into couriers (id, name, phone, vehicle, zones, active, on_duty, last_lat, last_lng, last_position_at, created_at, updated_at)
     select ${idSql('cou', 'g')}, 'Scale Courier ' || g, '+23320' || lpad(g::text, 7, '0'), 'motorbike', array['greater-accra'],
            true, true, $2 + (g % 100) / 2000.0, $3 - (g % 77) / 2000.0, now(), now(), now()
       from generate_series(1, $1::int) g`,
    [count, ACCRA.lat, ACCRA.lng],
  );
  const ids = Array.from({ length: count }, (_, k) => scaleId('cou', k + 1));
  const sessions = await session(c, 'courier', ids);
  return ids.map((id, k) => ({
    id,
    cookie: `${cookieName}=${sessions[k]!.id}`,
    csrf: sessions[k]!.csrf,
  }));
}

/**
 * Pending webhook events waiting for their next retry (an endpoint that refused them three times),
 * spread over the partners' apps, each with its last attempt.
 */
export async function seedPendingEvents(
  c: pg.Client,
  count: number,
  appIds: string[],
): Promise<void> {
  await c.query(
    `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, destination_url, payload, created_at,
       delivery_status, attempts, next_attempt_at, last_status_code, last_error)
     select ${idSql('evt', 'g')}, ($2::text[])[1 + g % $3], 'production', 'delivery.order.created', ${idSql('dlv', 'g')}, 1, null,
            jsonb_build_object('type', 'delivery.order.created', 'data', jsonb_build_object('order_id', ${idSql('dlv', 'g')}, 'status', 'placed')),
            now() - g * interval '1 second', 'pending', 3, now() + interval '1 day', 503, 'HTTP 503'
       from generate_series(1, $1::int) g`,
    [count, appIds, appIds.length],
  );
  await c.query(
    `insert into webhook_attempts (event_id, attempt, url, status_code, latency_ms, error, at)
     select ${idSql('evt', 'g')}, 3, 'http://127.0.0.1:9/hook', 503, 12, 'HTTP 503', now() - g * interval '1 second'
       from generate_series(1, $1::int) g`,
    [count],
  );
  await c.query('vacuum (analyze) outbox_events, webhook_attempts');
}

/** Orders numbered from..total-1 (0 the newest), partner i % 100, each with its timeline; then VACUUM ANALYZE. */
export async function growOrders(
  c: pg.Client,
  world: Pick<ScaleWorld, 'partnerIds' | 'appIds'>,
  from: number,
  total: number,
  startedAt: Date,
): Promise<{ seconds: number }> {
  const t0 = performance.now();
  const at = (n: number) => `$${n}::timestamptz - i * interval '${ORDER_SPACING_S} seconds'`;
  // Batches keep each transaction's WAL and memory bounded and show progress.
  const step = 200_000;
  for (let lo = from; lo < total; lo += step) {
    const hi = Math.min(total, lo + step);
    const args = [lo, hi, world.partnerIds, world.appIds, PARTNERS, startedAt];
    await c.query('begin');
    await c.query(
      `insert into delivery_orders (id, app_id, partner_id, environment, order_reference, status, version,
         customer_name, customer_phone, delivery_address, delivery_city, delivery_region, delivery_lat, delivery_lng,
         item, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng,
         pickup_region, dropoff_region, service_area, payer, payment_status, fee_pesewas, failure_reason,
         delivery_attempts, pickup_date, estimated_delivery, tracking_token, created_at, updated_at, delivered_at)
       select ${idSql('dlv', 'i')}, ($4::text[])[1 + i % $5], ($3::text[])[1 + i % $5], 'production', 'scale-' || i,
         p[cardinality(p)], cardinality(p),
         'Ama Mensah', '+23324' || lpad((i % 10000000)::text, 7, '0'), '12 Oxford Street', 'Accra', 'Greater Accra',
         5.55 + (i % 1000) / 10000.0, -0.18 - (i % 777) / 10000.0,
         'Two pairs of sandals', 'Kofi Boateng', '+233201234567', 'Makola Market', 5.549, -0.209,
         'Greater Accra', 'Greater Accra', 'Osu', 'recipient',
         case when p[cardinality(p)] = 'delivered' then 'collected' else 'pending' end, 2000 + i % 3000,
         case when p[cardinality(p)] = 'failed' then 'recipient_absent' end,
         case when cardinality(p) >= 4 then 1 else 0 end,
         (${at(6)})::date, ${at(6)} + interval '8 hours', md5('scale-' || i::text || $7), ${at(6)}, ${at(6)} + cardinality(p) * interval '10 minutes',
         -- The 'delivered' move's time below (the last move, version cardinality(p)), as the move writes it.
         case when p[cardinality(p)] = 'delivered' then ${at(6)} + (cardinality(p) - 1) * interval '10 minutes' end
       from generate_series($1::bigint, $2::bigint - 1) as i, lateral (select ${PATHS} as p) as path`,
      [...args, randomBytes(6).toString('hex')],
    );
    await c.query(
      `insert into delivery_order_events (order_id, version, status, note, at)
       select ${idSql('dlv', 'i')}, s.v, s.status, null, ${at(3)} + (s.v - 1) * interval '10 minutes'
         from generate_series($1::bigint, $2::bigint - 1) as i, lateral unnest(${PATHS}) with ordinality as s(status, v)`,
      [lo, hi, startedAt],
    );
    await c.query('commit');
    console.log(`    ${hi.toLocaleString('en')} orders`);
  }
  await c.query('vacuum (analyze) delivery_orders, delivery_order_events');
  return { seconds: (performance.now() - t0) / 1000 };
}
