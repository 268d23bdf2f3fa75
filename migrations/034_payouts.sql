-- Payouts to vendors and partners (issue 18). The ledger is the record of money; these tables hold
-- where each payee is paid, the runs, each payout's state towards the transfer provider, and the
-- remittance lines (the ledger entries a payout covers).
create table payout_destinations (
  -- 'vendor:<id>' or 'partner:<id>'
  payee text primary key,
  vendor_id text references vendors (id),
  partner_id text references partners (id),
  kind text not null check (kind in ('mobile_money', 'bank')),
  network text check (network in ('mtn', 'telecel', 'airteltigo')),
  -- A wallet number (0XXXXXXXXX) or a bank account number.
  number text not null,
  bank_code text,
  name text not null,
  -- What the provider's account-name lookup answered, when it can.
  resolved_name text,
  changed_at timestamptz not null,
  changed_by text not null,
  check ((vendor_id is null) <> (partner_id is null)),
  check ((kind = 'mobile_money') = (network is not null) and (kind = 'bank') = (bank_code is not null))
);

create table payout_runs (
  id text primary key,
  trigger text not null check (trigger in ('schedule', 'manual')),
  started_by text not null,
  -- Entries settled at or before this instant were payable (the hold period before the run).
  cutoff timestamptz not null,
  -- A scheduled run happens once per Accra day, whichever instance gets there first.
  schedule_day date unique,
  created_at timestamptz not null
);

create table payouts (
  -- Also our reference at the provider (its idempotency key).
  id text primary key,
  run_id text not null references payout_runs (id),
  payee text not null,
  -- The payable ledger account the payout comes from.
  account text not null,
  amount_pesewas bigint not null check (amount_pesewas > 0),
  provider text not null,
  destination jsonb not null,
  status text not null check (status in ('awaiting_approval', 'created', 'sending', 'pending', 'paid', 'failed', 'reversed', 'rejected')),
  -- Why it waits for a second finance operator: 'amount' and/or 'destination_changed'.
  approval_reasons text[] not null default '{}',
  created_by text not null,
  approved_by text,
  provider_reference text,
  fee_pesewas bigint,
  failure_reason text,
  attempts int not null default 0,
  sending_since timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (run_id, payee)
);
create index payouts_open_idx on payouts (status, sending_since) where status in ('created', 'sending', 'pending');
create index payouts_payee_idx on payouts (payee, created_at desc);

create table payout_lines (
  payout_id text not null references payouts (id),
  payee text not null,
  journal_id text not null,
  kind text not null,
  subject_id text not null,
  amount_pesewas bigint not null,
  -- Set when the payout failed, was reversed or rejected: the entry is owed again, to the next run.
  released boolean not null default false,
  primary key (payout_id, journal_id)
);
-- An entry is covered by at most one live payout: two runs racing cannot pay it twice.
create unique index payout_lines_covered_idx on payout_lines (payee, journal_id) where not released;
