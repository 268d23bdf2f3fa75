-- Partner accounts, their apps and the apps' API keys.
create table partners (
  id text primary key,
  name text not null,
  status text not null default 'active' check (status in ('active', 'suspended')),
  production_active boolean not null default false,
  credit_limit_pesewas bigint not null default 0 check (credit_limit_pesewas >= 0),
  reads_per_minute integer check (reads_per_minute > 0),
  writes_per_minute integer check (writes_per_minute > 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table apps (
  id text primary key,
  partner_id text not null references partners (id),
  name text not null,
  webhook_url text,
  return_url text,
  webhook_secret_sealed text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index apps_partner_idx on apps (partner_id);

create table api_keys (
  id text primary key,
  app_id text not null references apps (id),
  environment text not null check (environment in ('staging', 'production')),
  -- SHA-256 of the key: the key itself is never stored.
  key_hash text not null unique,
  -- First and last characters, so operators can tell keys apart.
  key_hint text not null,
  signing_secret_sealed text not null,
  scopes text[] not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  check (environment = 'production' or not ('delivery:wallet:spend' = any (scopes)))
);
create index api_keys_app_idx on api_keys (app_id);
