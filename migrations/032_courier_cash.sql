-- Cash couriers collect on delivery and hand in. The ledger (account courier_cash:<courier>) is the
-- record; this is the cached balance per courier (what they are expected to hand in), moved in the
-- same transaction as each journal, whose row lock serialises handovers, plus the handovers themselves.
create table courier_cash (
  courier_id text primary key references couriers (id),
  balance_pesewas bigint not null default 0 check (balance_pesewas >= 0),
  updated_at timestamptz not null
);

create table courier_cash_handovers (
  id text primary key,
  courier_id text not null references couriers (id),
  amount_pesewas bigint not null check (amount_pesewas > 0),
  -- Who recorded it: the operator's id, or "admin-token".
  recorded_by text not null,
  created_at timestamptz not null
);
create index courier_cash_handovers_courier_idx on courier_cash_handovers (courier_id, created_at desc);
