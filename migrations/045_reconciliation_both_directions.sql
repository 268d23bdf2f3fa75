-- Reconciliation, both directions (issue 26): lines re-imported differently, transfer statements
-- (money out), and settlements posted only once a second finance operator approves them.

-- A line imported again with another amount, fee or status than the one held (gateway_report_lines
-- or transfer_statement_lines): kept beside it and listed as a difference on its day, never dropped.
-- The same second version imported twice is one row (the key); the status is kept in lower case.
create table report_line_versions (
  -- A gateway (paystack, hubtel) or `transfers` (the transfer provider's statement).
  source text not null,
  kind text not null check (kind in ('payment', 'refund', 'settlement', 'transfer')),
  reference text not null,
  amount_pesewas bigint not null check (amount_pesewas >= 0),
  fee_pesewas bigint not null check (fee_pesewas >= 0),
  status text not null,
  occurred_at timestamptz not null,
  day date not null,
  imported_by text not null,
  imported_at timestamptz not null,
  primary key (source, kind, reference, amount_pesewas, fee_pesewas, status)
);
create index report_line_versions_day_idx on report_line_versions (source, day);

-- One transfer of the provider's statement, in its latest state. The key (provider, reference) makes
-- an import idempotent; a transfer that moved on (pending then paid, paid then reversed) is updated.
create table transfer_statement_lines (
  provider text not null,
  -- Our reference: a payout's id or a buyer refund's reference.
  reference text not null,
  transfer_code text,
  amount_pesewas bigint not null check (amount_pesewas >= 0),
  fee_pesewas bigint not null check (fee_pesewas >= 0 and fee_pesewas <= amount_pesewas),
  -- The provider's word (lower case) and what it means for the money.
  status text not null,
  state text not null check (state in ('pending', 'paid', 'failed', 'reversed')),
  occurred_at timestamptz not null,
  day date not null,
  imported_at timestamptz not null,
  primary key (provider, reference)
);
create index transfer_statement_lines_day_idx on transfer_statement_lines (provider, day);

-- A settlement imported from a gateway's report is proposed; its gateway_settlement journal posts
-- only when a second finance operator (not the importer) approves it, in the approval's transaction.
-- At most one live (proposed or approved) row per settlement; a rejected one may be proposed again
-- by a corrected report.
create table settlement_approvals (
  id text primary key,
  gateway text not null,
  settlement_id text not null,
  amount_pesewas bigint not null check (amount_pesewas > 0),
  fee_pesewas bigint not null check (fee_pesewas >= 0 and fee_pesewas <= amount_pesewas),
  settled_at timestamptz not null,
  status text not null check (status in ('proposed', 'approved', 'rejected')),
  proposed_by text not null,
  proposed_at timestamptz not null,
  decided_by text,
  decided_at timestamptz,
  reason text,
  check ((status = 'proposed') = (decided_by is null))
);
create unique index settlement_approvals_live_idx on settlement_approvals (gateway, settlement_id) where status <> 'rejected';
create index settlement_approvals_newest_idx on settlement_approvals (proposed_at desc, id desc);

-- Settlements imported before this migration were posted on import: they stand as approved.
insert into settlement_approvals (id, gateway, settlement_id, amount_pesewas, fee_pesewas, settled_at, status, proposed_by, proposed_at, decided_by, decided_at)
select 'stl_' || md5(gateway || ':' || reference), gateway, reference, amount_pesewas, fee_pesewas, occurred_at, 'approved', 'migration 045', imported_at, 'migration 045', imported_at
  from gateway_report_lines where kind = 'settlement' and succeeded and amount_pesewas > 0;
