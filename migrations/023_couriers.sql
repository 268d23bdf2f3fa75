-- Couriers (managed by operators) and what the platform knows of each right now: on duty or not, and
-- their last reported position. Offers, assignments and trails belong to dispatch, not here.
create table couriers (
  id text primary key,
  name text not null,
  -- E.164 (+233...), the number couriers sign in with.
  phone text not null,
  vehicle text not null check (vehicle in ('motorbike', 'car', 'van')),
  -- Zones (service areas / regions) the courier works in; empty means none yet.
  zones text[] not null default '{}',
  active boolean not null default true,
  on_duty boolean not null default false,
  last_lat double precision,
  last_lng double precision,
  last_position_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint couriers_phone_key unique (phone),
  constraint couriers_position_pair check ((last_lat is null) = (last_lng is null))
);
-- Dispatch looks for couriers who are active and on duty, most recently seen first.
create index couriers_available_idx on couriers (last_position_at desc) where active and on_duty;
