-- Price-locked quotes: orders.estimate records the standard fee it priced for an app and environment,
-- and orders.create may redeem it once before it expires. The points are kept to check that the
-- order goes where the quote priced.
create table delivery_quotes (
  id text primary key,
  app_id text not null references apps (id),
  environment text not null,
  pickup_lat double precision not null,
  pickup_lng double precision not null,
  dropoff_lat double precision not null,
  dropoff_lng double precision not null,
  fee_pesewas bigint not null check (fee_pesewas >= 0),
  created_at timestamptz not null,
  expires_at timestamptz not null
);
-- For a later sweep of expired, unredeemed quotes.
create index delivery_quotes_expires_idx on delivery_quotes (expires_at);

-- The quote an order redeemed: unique, so two creates racing for one quote cannot both win.
alter table delivery_orders add column quote_id text references delivery_quotes (id);
create unique index delivery_orders_quote_key on delivery_orders (quote_id) where quote_id is not null;

-- GhanaPostGPS digital addresses as given (upper case); shown to couriers, never priced.
alter table delivery_orders add column pickup_digital_address text;
alter table delivery_orders add column delivery_digital_address text;
