-- Buyer refunds (issue 18): a prepaid sale owed back to its buyer (payment_status refund_due) is
-- refunded once, through the collecting gateway's refund or by a mobile money transfer. The ledger
-- is the record of money; this table holds each refund's state towards the provider.
alter table sales drop constraint sales_payment_status_check;
alter table sales add constraint sales_payment_status_check
  check (payment_status in ('pending', 'paid', 'collected', 'declined', 'expired', 'not_collected', 'refund_due', 'not_started', 'amount_mismatch', 'refunded'));

create table sale_refunds (
  -- One refund per sale: whoever inserts it first owns it, a second insert is a no-op.
  sale_id text primary key references sales (id),
  -- The current attempt's reference (our idempotency key at a transfer provider); a retry after a
  -- final failure takes a new one, so the failed attempt is never sent again.
  reference text not null unique,
  amount_pesewas bigint not null check (amount_pesewas > 0),
  method text not null check (method in ('gateway_refund', 'mobile_money')),
  -- The collecting gateway (gateway_refund) or the transfer provider (mobile_money).
  provider text not null,
  status text not null check (status in ('pending', 'processing', 'succeeded', 'failed')),
  -- mobile_money: where the money goes; null until an operator supplies it (a number does not fix its network).
  destination jsonb,
  attempts int not null default 0,
  provider_reference text,
  fee_pesewas bigint,
  failure_reason text,
  processing_since timestamptz,
  refunded_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  check (method = 'mobile_money' or destination is null)
);
create index sale_refunds_open_idx on sale_refunds (status, processing_since) where status in ('pending', 'processing');
create index sale_refunds_newest_idx on sale_refunds (created_at desc, sale_id desc);
-- The job looks for sales owed a refund that have no refund row yet.
create index sales_refund_due_idx on sales (updated_at) where payment_status = 'refund_due';

-- The sandbox gateway refunds (no money moves) and answers a refund's status like a real gateway.
alter table sandbox_checkouts add column refunded_at timestamptz;
