-- Operator accounts (people who run the platform), their API tokens, and failed sign-ins (throttling
-- that holds across instances).
create table operators (
  id text primary key,
  email text not null,
  name text not null,
  password_hash text not null,
  roles text[] not null check (cardinality(roles) > 0 and roles <@ array['support', 'finance', 'admin']::text[]),
  active boolean not null default true,
  -- The TOTP secret, sealed with the secrets key; usable for sign-in once confirmed by a first code.
  totp_secret_sealed text,
  totp_confirmed boolean not null default false,
  -- The step of the last code accepted: a code is accepted once.
  totp_last_step bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index operators_email_key on operators (lower(email));

create table operator_tokens (
  id text primary key,
  operator_id text not null references operators (id),
  name text not null,
  -- SHA-256 of the token: the token itself is never stored.
  token_hash text not null unique,
  token_hint text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
create index operator_tokens_operator_idx on operator_tokens (operator_id, id);

create table operator_sign_in_failures (
  id bigint generated always as identity primary key,
  scope text not null check (scope in ('account', 'ip')),
  subject text not null,
  at timestamptz not null
);
create index operator_sign_in_failures_idx on operator_sign_in_failures (scope, subject, at);
