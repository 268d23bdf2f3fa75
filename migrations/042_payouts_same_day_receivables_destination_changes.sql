-- Payouts (issue 18, money out): same-day vendors paid after each courier cash handover, the
-- remittance lines of a payee's receivable (a return after its payout, deducted from the next one),
-- and operators' destination changes waiting for a second operator.

-- A vendor's payout schedule; a vendor without a row is paid by the daily run only.
create table payout_schedules (
  vendor_id text primary key references vendors (id),
  schedule text not null check (schedule in ('daily', 'same_day')),
  changed_at timestamptz not null,
  changed_by text not null
);

-- A run after a cash handover is made once per handover, whichever instance records it.
alter table payout_runs add column handover_id text unique;
alter table payout_runs drop constraint payout_runs_trigger_check;
alter table payout_runs add constraint payout_runs_trigger_check check (trigger in ('schedule', 'manual', 'handover'));

-- The account a line's entry is on: the payee's payable, or its receivable (a deduction). Lines
-- written before this column are all on the payout's payable account.
alter table payout_lines add column account text;

-- An operator's change of a payee's destination waits for a second operator's approval (the
-- classic account takeover); the approved destination replaces the payee's in payout_destinations.
create table payout_destination_changes (
  id text primary key,
  payee text not null,
  vendor_id text references vendors (id),
  partner_id text references partners (id),
  kind text not null check (kind in ('mobile_money', 'bank')),
  network text check (network in ('mtn', 'telecel', 'airteltigo')),
  number text not null,
  bank_code text,
  name text not null,
  resolved_name text,
  proposed_by text not null,
  proposed_at timestamptz not null,
  status text not null check (status in ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  check ((vendor_id is null) <> (partner_id is null))
);
-- One change waits per payee at a time.
create unique index payout_destination_changes_pending_idx on payout_destination_changes (payee) where status = 'pending';
