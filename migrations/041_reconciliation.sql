-- Reconciliation (issue 18): gateways' reports as imported, and each day's result against the ledger.

-- One line of a gateway's report. The key (gateway, kind, reference) makes an import idempotent: the
-- same report twice inserts nothing (a refund carries its payment's reference, hence the kind).
-- A settlement line's reference is its settlement id; its journal is posted once, in the import's
-- transaction, only when its line is first inserted (the ledger's unique (kind, subject) guards too).
create table gateway_report_lines (
  gateway text not null,
  kind text not null check (kind in ('payment', 'refund', 'settlement')),
  reference text not null,
  amount_pesewas bigint not null check (amount_pesewas >= 0),
  fee_pesewas bigint not null check (fee_pesewas >= 0 and fee_pesewas <= amount_pesewas),
  -- The gateway's own status word, and whether it means money moved (success, paid, processed…).
  status text not null,
  succeeded boolean not null,
  -- When it was paid (or settled), and that day in Accra (UTC, no daylight saving).
  occurred_at timestamptz not null,
  day date not null,
  settlement_id text,
  imported_at timestamptz not null,
  primary key (gateway, kind, reference)
);
create index gateway_report_lines_day_idx on gateway_report_lines (gateway, day);
create index gateway_report_lines_settlement_idx on gateway_report_lines (gateway, settlement_id) where settlement_id is not null;

-- One result per source (a gateway, or rider_cash) and day; a new run replaces it (its differences
-- go with it). Runs are audited by whoever ran them.
create table reconciliations (
  id text primary key,
  source text not null,
  day date not null,
  status text not null check (status in ('matched', 'differences', 'flagged')),
  matched_count integer not null,
  -- What is left on the clearing account for the day once its settlements (or handovers) are counted.
  residue_pesewas bigint not null,
  run_by text not null,
  run_at timestamptz not null,
  unique (source, day)
);
create index reconciliations_recent_idx on reconciliations (day desc, source);

create table reconciliation_differences (
  reconciliation_id text not null references reconciliations (id) on delete cascade,
  position integer not null,
  kind text not null,
  reference text not null,
  ledger_pesewas bigint,
  report_pesewas bigint,
  note text not null,
  primary key (reconciliation_id, position)
);
