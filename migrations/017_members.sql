-- People of partners who use the dashboard (owned by modules/members).
create table members (
  id text primary key,
  -- Lower-cased; the sign-in name.
  email text not null unique,
  password_hash text not null,
  email_verified_at timestamptz,
  created_at timestamptz not null default now()
);

-- A member's role at a partner. One partner per member for now (the unique member_id).
create table memberships (
  member_id text not null unique references members (id),
  partner_id text not null references partners (id),
  role text not null check (role in ('owner', 'developer', 'finance')),
  created_at timestamptz not null default now(),
  primary key (member_id, partner_id)
);
create index memberships_partner_idx on memberships (partner_id);

-- Links sent by mail (verification, password reset, invitation): only the SHA-256 of the token is
-- stored; each is single use (used_at) and expires.
create table member_email_tokens (
  token_hash text primary key,
  purpose text not null check (purpose in ('verify', 'reset', 'invite')),
  email text not null,
  member_id text references members (id),
  partner_id text references partners (id),
  role text check (role in ('owner', 'developer', 'finance')),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);

-- Failed sign-ins, counted per account and per client address over a window (shared by every
-- instance, since they all use this database).
create table sign_in_failures (
  scope text not null,
  at timestamptz not null
);
create index sign_in_failures_scope_idx on sign_in_failures (scope, at);
