/**
 * The bare baseline's one table, shared by its server and the bench (which reads the seeded ids).
 *
 * `bench_baseline_orders` has the columns, types, defaults, checks, unique constraints and indexes of
 * the platform's `delivery_orders` as its migrations leave it, so a primary-key select reads a row of
 * the same width and an insert maintains the same indexes (the console's and dashboard's list
 * indexes and the reference search's trigram index among them). It has no foreign keys: the bare
 * server has no partners, apps or quotes to refer to. test/delivery/module/bench-baseline-table.test.ts
 * compares the two tables, so a migration that changes `delivery_orders` changes this too.
 */
export const TABLE = 'bench_baseline_orders';

export const DDL = `
create extension if not exists pg_trgm with schema public;
create table if not exists ${TABLE} (
  id text primary key,
  app_id text not null,
  partner_id text not null,
  environment text not null check (environment in ('staging', 'production')),
  order_reference text not null,
  status text not null default 'placed'
    check (status in ('placed', 'accepted', 'pickedUp', 'in_transit', 'delivered', 'returning', 'returned', 'cancelled', 'failed')),
  version integer not null default 1,
  customer_name text not null,
  customer_phone text not null,
  customer_whatsapp text,
  delivery_address text not null,
  delivery_city text not null,
  delivery_region text not null,
  delivery_lat double precision,
  delivery_lng double precision,
  delivery_location_id text,
  delivery_notes text,
  item text not null,
  pickup_contact_person text not null,
  pickup_contact_phone text not null,
  pickup_address text,
  pickup_lat double precision,
  pickup_lng double precision,
  pickup_location_id text,
  pickup_region text,
  dropoff_region text,
  service_area text,
  payer text not null check (payer in ('recipient', 'partner')),
  payment_method text,
  payment_is_paid boolean,
  payment_status text not null
    check (payment_status in ('pending', 'collected', 'wallet_debited', 'refund_pending', 'refunded')),
  fee_pesewas bigint check (fee_pesewas >= 0),
  requested_date date,
  pickup_date date not null,
  estimated_delivery timestamptz not null,
  special_instructions text,
  webhook_url text,
  tracking_token text not null unique,
  cancelled_at timestamptz,
  cancellation_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivery_attempts integer not null default 0 check (delivery_attempts >= 0),
  failure_reason text check (failure_reason in ('recipient_absent', 'refused', 'wrong_address', 'other')),
  failure_note text,
  return_fee_pesewas bigint check (return_fee_pesewas >= 0),
  quote_id text,
  pickup_digital_address text,
  delivery_digital_address text,
  pickup_ready_at timestamptz,
  dropoff_deadline timestamptz,
  test_clock_id text,
  delivered_at timestamptz,
  constraint ${TABLE}_reference_key unique (app_id, environment, order_reference)
);
create index if not exists ${TABLE}_moving_idx on ${TABLE} (updated_at)
  where environment = 'staging' and status in ('placed', 'accepted', 'pickedUp', 'in_transit');
create index if not exists ${TABLE}_refund_pending_idx on ${TABLE} (updated_at)
  where payment_status = 'refund_pending';
create index if not exists ${TABLE}_board_idx on ${TABLE} (created_at desc, id desc);
create index if not exists ${TABLE}_status_board_idx on ${TABLE} (status, created_at desc, id desc);
create index if not exists ${TABLE}_partner_status_idx on ${TABLE} (partner_id, status, created_at desc, id desc);
create unique index if not exists ${TABLE}_quote_key on ${TABLE} (quote_id) where quote_id is not null;
create index if not exists ${TABLE}_customer_phone_idx on ${TABLE} (customer_phone, created_at desc);
create index if not exists ${TABLE}_reference_trgm_idx on ${TABLE}
  using gin (order_reference public.gin_trgm_ops);
create index if not exists ${TABLE}_test_clock_idx on ${TABLE} (test_clock_id) where test_clock_id is not null;
create index if not exists ${TABLE}_partner_list_idx on ${TABLE} (partner_id, created_at desc, id desc)
  include (order_reference, status, delivered_at);
`;

/** The one app and partner every baseline row belongs to (ids of the platform's length). */
export const APP_ID = 'app_0BASELINE00000000000000000';
export const PARTNER_ID = 'ptn_0BASELINE00000000000000000';

/** Rows the baseline server seeds on start (ids 0..n-1), as many as the platform side is given. */
export const SEED_ROWS = 500;

/** Seeded row i's id: 30 characters, like a platform order id (`dlv_` + a 26-character ULID). */
export const seededId = (i: number): string => `dlv_0BASELINE${String(i).padStart(17, '0')}`;

/** Fills rows 0..n-1 with one INSERT ... SELECT, production orders in status placed like the platform's. */
export const SEED_SQL = `
insert into ${TABLE} (id, app_id, partner_id, environment, order_reference, status, version,
  customer_name, customer_phone, delivery_address, delivery_city, delivery_region, delivery_lat, delivery_lng,
  item, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng,
  pickup_region, dropoff_region, service_area, payer, payment_status, fee_pesewas,
  pickup_date, estimated_delivery, tracking_token)
select 'dlv_0BASELINE' || lpad(i::text, 17, '0'), '${APP_ID}', '${PARTNER_ID}', 'production', 'seed-' || i, 'placed', 1,
  'Ama Mensah', '+233241234567', '12 Oxford Street', 'Accra', 'Greater Accra', 5.556, -0.182,
  'Two pairs of sandals', 'Kofi Boateng', '+233201234567', 'Makola Market', 5.549, -0.209,
  'Greater Accra', 'Greater Accra', 'Osu', 'recipient', 'pending', 2550,
  current_date, now() + interval '8 hours', md5('seed-' || i)
from generate_series(0, $1::int - 1) as i
on conflict do nothing`;
