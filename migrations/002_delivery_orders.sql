-- Delivery orders, their status history (the timeline) and the webhook outbox.
create table delivery_orders (
  id text primary key,
  app_id text not null references apps (id),
  partner_id text not null references partners (id),
  environment text not null check (environment in ('staging', 'production')),
  order_reference text not null,
  status text not null default 'placed'
    check (status in ('placed', 'accepted', 'pickedUp', 'in_transit', 'delivered', 'cancelled', 'failed')),
  -- Incremented on every status change; numbers the order's webhook events.
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
  -- Null when neither coordinates nor payment.amount gave a fee.
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
  constraint delivery_orders_reference_key unique (app_id, environment, order_reference)
);
-- The sandbox courier looks for staging orders still moving.
create index delivery_orders_moving_idx on delivery_orders (updated_at)
  where environment = 'staging' and status in ('placed', 'accepted', 'pickedUp', 'in_transit');

create table delivery_order_events (
  order_id text not null references delivery_orders (id),
  version integer not null,
  status text not null,
  note text,
  at timestamptz not null default now(),
  primary key (order_id, version)
);

-- Every webhook event is written here in the transaction of the change that causes it.
create table outbox_events (
  id text primary key,
  app_id text not null references apps (id),
  environment text not null check (environment in ('staging', 'production')),
  type text not null,
  subject_id text not null,
  sequence integer not null,
  -- A per-order webhook_url overrides the app's URL; null means the app's URL at send time.
  destination_url text,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  unique (subject_id, type, sequence)
);
create index outbox_events_app_idx on outbox_events (app_id, created_at);
