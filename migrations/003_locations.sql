-- Live delivery areas added by operators; merged at runtime with the curated list shipped in code.
-- Coordinates are optional: an area without them is listed but never used to resolve a point.
create table delivery_locations (
  id text primary key,
  name text not null,
  region text not null,
  zone text not null,
  lat double precision check (lat between -90 and 90),
  lng double precision check (lng between -180 and 180),
  created_at timestamptz not null default now(),
  check ((lat is null) = (lng is null))
);
