-- Payouts (issue 18, money out): same-day vendors paid after each courier cash handover, and the
-- remittance lines of a payee's receivable (a return after its payout, deducted from the next one).

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
