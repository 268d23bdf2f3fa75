-- Dispatch: which courier is offered, and which holds, each production order. Owned by the dispatch
-- module; orders and couriers are referred to by id only (their tables belong to delivery and couriers).

-- One row per order dispatch knows of, written in the order's own placement transaction.
create table dispatch_jobs (
  order_id text primary key,
  environment text not null check (environment in ('staging', 'production')),
  -- Where the courier collects (null when the partner gave no pickup coordinates).
  pickup_lat double precision,
  pickup_lng double precision,
  -- The pickup region as a zone id (e.g. 'greater-accra'); null when unknown.
  zone text,
  -- waiting: needs a courier; offered: one open offer; assigned: a courier holds it; closed: ended.
  state text not null check (state in ('waiting', 'offered', 'assigned', 'closed')),
  -- Set once nobody accepted in time; cleared when a courier takes it.
  late_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
-- The dispatcher's work (and the board): jobs still needing a courier, oldest first.
create index dispatch_jobs_open_idx on dispatch_jobs (created_at) where state in ('waiting', 'offered');

create table dispatch_offers (
  id text primary key,
  order_id text not null references dispatch_jobs (order_id),
  courier_id text not null,
  state text not null check (state in ('open', 'accepted', 'declined', 'expired', 'withdrawn')),
  offered_at timestamptz not null,
  expires_at timestamptz not null,
  answered_at timestamptz,
  -- A courier is offered a job at most once: declined or missed, the job moves on.
  constraint dispatch_offers_once unique (order_id, courier_id)
);
-- At most one open offer per job.
create unique index dispatch_offers_open_key on dispatch_offers (order_id) where state = 'open';
create index dispatch_offers_expiry_idx on dispatch_offers (expires_at) where state = 'open';

create table dispatch_assignments (
  id text primary key,
  order_id text not null references dispatch_jobs (order_id),
  courier_id text not null,
  -- accepted, at_pickup, picked_up, at_dropoff, then delivered or failed when it ends that way.
  stage text not null check (stage in ('accepted', 'at_pickup', 'picked_up', 'at_dropoff', 'delivered', 'failed')),
  -- offer (the courier accepted) or operator (assigned by hand).
  source text not null check (source in ('offer', 'operator')),
  started_at timestamptz not null,
  updated_at timestamptz not null,
  ended_at timestamptz,
  -- finished, reassigned, cancelled (the order ended elsewhere).
  end_reason text check (end_reason in ('finished', 'reassigned', 'cancelled'))
);
-- Two couriers can never hold the same job: one active assignment per order.
create unique index dispatch_assignments_active_key on dispatch_assignments (order_id) where ended_at is null;
-- A courier's load (active jobs) when ranking candidates.
create index dispatch_assignments_courier_idx on dispatch_assignments (courier_id) where ended_at is null;

-- Courier actions by their client action id: written in the same transaction as their effect, so a
-- replay (a phone's offline queue sent twice) answers the first result and never applies twice.
create table dispatch_actions (
  courier_id text not null,
  action_id text not null,
  order_id text not null,
  kind text not null,
  result jsonb not null,
  at timestamptz not null,
  primary key (courier_id, action_id)
);

-- Dispatch's candidate query (CouriersService.available near a pickup) looks in a box around the
-- pickup; this index on the couriers table (owned by the couriers module) keeps that box indexed
-- however many couriers are on duty.
create index couriers_position_idx on couriers (last_lat, last_lng) where active and on_duty;
