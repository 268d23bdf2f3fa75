-- Webhook delivery state on the outbox, attempts, disabled endpoints and secret rotation.
alter table outbox_events
  add column delivery_status text not null default 'pending'
    check (delivery_status in ('pending', 'delivered', 'dead', 'no_destination')),
  add column attempts integer not null default 0,
  add column next_attempt_at timestamptz not null default now(),
  -- A claimed event is leased to one dispatcher until this time; a dead dispatcher's lease lapses.
  add column lease_until timestamptz,
  add column last_status_code integer,
  add column last_error text,
  add column delivered_at timestamptz;

create index outbox_events_due_idx on outbox_events (next_attempt_at) where delivery_status = 'pending';
create index outbox_events_status_idx on outbox_events (app_id, delivery_status, created_at);

create table webhook_attempts (
  id bigserial primary key,
  event_id text not null references outbox_events (id),
  attempt integer not null,
  url text not null,
  status_code integer,
  latency_ms integer not null,
  error text,
  response_excerpt text,
  at timestamptz not null default now()
);
create index webhook_attempts_event_idx on webhook_attempts (event_id, id);

-- Endpoints that answered 410 Gone: nothing is sent to them until an operator enables them again.
create table webhook_disabled_endpoints (
  app_id text not null references apps (id),
  url text not null,
  disabled_at timestamptz not null default now(),
  primary key (app_id, url)
);

-- During a rotation both secrets sign, until the previous one expires.
alter table apps
  add column previous_webhook_secret_sealed text,
  add column previous_webhook_secret_expires_at timestamptz
