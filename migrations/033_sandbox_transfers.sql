-- The built-in sandbox transfer provider (integrations/transfers) keeps the transfers it received, so a
-- restart or another instance answers their status as before, and a repeated reference is recognised.
create table sandbox_transfers (
  reference text primary key,
  amount_pesewas bigint not null check (amount_pesewas > 0),
  destination jsonb not null,
  reason text not null,
  provider_reference text not null unique,
  created_at timestamptz not null
);
