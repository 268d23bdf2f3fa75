-- Web Push subscriptions of the courier app (owned by modules/couriers): at most one per courier
-- session (the browser that signed in), kept under the session's SHA-256 as web_sessions keeps it.
-- An endpoint is one browser's, so it belongs to one session at a time. last_offer_id is the newest
-- offer pushed to it: instances claim an offer for a subscription by compare-and-set, so each offer
-- is pushed once however many instances are woken by its commit.
create table courier_push_subscriptions (
  session_hash text primary key,
  courier_id text not null references couriers (id) on delete cascade,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  last_offer_id text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint courier_push_subscriptions_endpoint_key unique (endpoint)
);
create index courier_push_subscriptions_courier_idx on courier_push_subscriptions (courier_id);
