-- Live location: a short trail of the position reports of the courier holding each job, and what
-- the throttled delivery.courier.location webhook needs. Owned by the dispatch module.

-- The drop-off point (copied from the order at placement, like the pickup) for the ETA after pickup,
-- and when the last location event of the job was written (at most one per 20 s, compare-and-set).
alter table dispatch_jobs add column dropoff_lat double precision;
alter table dispatch_jobs add column dropoff_lng double precision;
alter table dispatch_jobs add column location_sent_at timestamptz;
-- How many location events the job has written: their outbox sequence (one per order and type).
alter table dispatch_jobs add column location_events integer not null default 0;

-- Position reports of the courier holding the job; bounded per order (the newest 50 are kept) and
-- deleted by the retention job once old or once the job has ended.
create table dispatch_trail (
  order_id text not null references dispatch_jobs (order_id),
  lat double precision not null,
  lng double precision not null,
  at timestamptz not null
);
-- An order's newest points (orders.track, the trail's bound); also serves the retention's per-order deletes.
create index dispatch_trail_order_idx on dispatch_trail (order_id, at desc);
-- The retention job's oldest-first batches.
create index dispatch_trail_at_idx on dispatch_trail (at);
