-- The partner wallet as a double-entry ledger in integer pesewas, top-ups, and the sandbox gateway.

-- Accounts are named, e.g. 'wallet:ptn_...', 'delivery_revenue', 'gateway_clearing:sandbox'.
-- Amounts are signed so that every journal sums to zero.
create table ledger_journals (
  id text primary key,
  kind text not null,
  -- What the journal is about (a top-up, an order, a sale): one journal per kind and subject.
  subject_id text not null,
  memo text,
  created_at timestamptz not null default now(),
  constraint ledger_journals_subject_key unique (kind, subject_id)
);

create table ledger_entries (
  journal_id text not null references ledger_journals (id),
  account text not null,
  amount_pesewas bigint not null check (amount_pesewas <> 0),
  created_at timestamptz not null default now(),
  primary key (journal_id, account)
);
create index ledger_entries_account_idx on ledger_entries (account, created_at);

-- Append-only: entries and journals are never changed or removed.
create function ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the ledger is append-only' using errcode = '55000';
end $$;

create trigger ledger_entries_append_only before update or delete on ledger_entries
  for each row execute function ledger_append_only();

create trigger ledger_journals_append_only before update or delete on ledger_journals
  for each row execute function ledger_append_only();

-- Checked at commit, when all of a journal's entries are in.
create function ledger_journal_balanced() returns trigger language plpgsql as $$
begin
  if (select coalesce(sum(amount_pesewas), 0) from ledger_entries where journal_id = new.journal_id) <> 0 then
    raise exception 'journal % does not balance', new.journal_id using errcode = '23514';
  end if;
  return null;
end $$;

create constraint trigger ledger_entries_balanced after insert on ledger_entries
  deferrable initially deferred for each row execute function ledger_journal_balanced();

-- The cached balance of each partner wallet, updated in the transaction of every entry on it.
create table wallets (
  partner_id text primary key references partners (id),
  balance_pesewas bigint not null default 0,
  updated_at timestamptz not null default now()
);

create table wallet_topups (
  id text primary key,
  partner_id text not null references partners (id),
  -- The app whose key initiated the top-up: wallet events go to it.
  app_id text not null references apps (id),
  client_reference text not null unique,
  amount_pesewas bigint not null check (amount_pesewas >= 3000),
  gateway text not null,
  checkout_id text,
  checkout_url text,
  status text not null check (status in ('initiating', 'pending', 'credited', 'failed')),
  credited_pesewas bigint,
  last_gateway_status text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  credited_at timestamptz
);
create index wallet_topups_partner_idx on wallet_topups (partner_id, created_at);

-- The built-in sandbox gateway keeps its checkouts here, so they survive restarts and every
-- instance sees them.
create table sandbox_checkouts (
  id text primary key,
  client_reference text not null unique,
  amount_pesewas bigint not null check (amount_pesewas > 0),
  description text not null,
  callback_url text not null,
  return_url text not null,
  cancellation_url text not null,
  status text not null default 'Unpaid' check (status in ('Unpaid', 'Paid', 'Declined')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The refund job looks for cancelled wallet-funded orders still owed their fee.
create index delivery_orders_refund_pending_idx on delivery_orders (updated_at) where payment_status = 'refund_pending'
