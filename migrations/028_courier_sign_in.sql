-- Courier sign-in and the courier app (issue 16).

-- Sessions of couriers share the web sessions store.
alter table web_sessions drop constraint if exists web_sessions_subject_kind_check;
alter table web_sessions add constraint web_sessions_subject_kind_check check (subject_kind in ('member', 'operator', 'courier'));

-- One row per sign-in code request (owned by modules/couriers): every request is kept, whether the
-- number belongs to a courier or not, so the throttles (per phone, per address) count them alike.
-- Only requests for an active courier carry a code, stored as a SHA-256 (never the code itself).
create table courier_sign_in_codes (
  id text primary key,
  phone text not null,
  courier_id text references couriers (id),
  code_hash text,
  ip text not null,
  attempts integer not null default 0,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index courier_sign_in_codes_phone_idx on courier_sign_in_codes (phone, created_at desc);
create index courier_sign_in_codes_ip_idx on courier_sign_in_codes (ip, created_at desc);

-- Actions sent by the courier app (owned by modules/couriers): each carries an id made on the phone,
-- claimed here before it is applied, so a replay from the phone's queue is answered, not applied again.
create table courier_actions (
  courier_id text not null references couriers (id),
  id uuid not null,
  kind text not null,
  -- applied or refused (with the reason); null while it is being applied.
  outcome text check (outcome in ('applied', 'refused')),
  reason text,
  received_at timestamptz not null,
  primary key (courier_id, id)
);

-- Text messages kept by the development SMS outbox (integrations/sms) when no SMS provider is
-- configured, readable at /dev/sms. Never used when SMS_PROVIDER is set.
create table dev_sms_outbox (
  id text primary key,
  to_number text not null,
  body text not null,
  created_at timestamptz not null default now()
);
