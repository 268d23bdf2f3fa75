-- Buyer refunds reversed after success (issue 26). A provider may send a succeeded refund back (a
-- transfer reversed, a gateway refund with reversed_at): the refund becomes `reversed`, the money is
-- booked back to sale_refunds_payable and an operator sends it again under a new reference.
alter table sale_refunds drop constraint sale_refunds_status_check;
alter table sale_refunds add constraint sale_refunds_status_check
  check (status in ('pending', 'processing', 'succeeded', 'failed', 'reversed'));

alter table sale_refunds add column reversed_at timestamptz;
-- A succeeded refund is asked about a reversal again at this time (within SALE_REFUND_WATCH_HOURS of
-- its success); null when it is not watched.
alter table sale_refunds add column next_check_at timestamptz;
-- The references of the refund's earlier attempts (each attempt's journals are keyed by its reference).
alter table sale_refunds add column earlier_references text[] not null default '{}';

-- Refunds that succeeded before are asked about once; the job stops watching those past the window.
update sale_refunds set next_check_at = refunded_at where status = 'succeeded';
create index sale_refunds_watch_idx on sale_refunds (next_check_at) where status = 'succeeded' and next_check_at is not null;
