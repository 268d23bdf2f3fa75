-- A sale's delivery order is created and linked in one transaction, under the sale's row lock, so
-- the claim column is no longer needed. Its order_reference is random per sale, chosen when the
-- sale is written: a partner cannot guess it and take it first with an order of its own.
alter table sales add column delivery_reference text;
update sales set delivery_reference = 'safe-' || id where delivery_reference is null;
alter table sales alter column delivery_reference set not null;
alter table sales drop column dispatch_claimed_at;

-- Payments that cannot simply confirm or fail a sale:
-- - the gateway reports a different amount than the sale total: the sale is held (on_hold,
--   amount_mismatch) with the money booked to a suspense account until someone resolves it;
-- - the gateway reports a payment for a sale that already failed: the money is booked as owed
--   back to the buyer (payment_status refund_due).
-- gateway_amount_pesewas is what the gateway reported; refund_due_pesewas what the buyer is owed.
alter table sales drop constraint sales_state_check;
alter table sales add constraint sales_state_check
  check (state in ('awaiting_payment', 'awaiting_delivery', 'confirmed', 'failed', 'on_hold'));
alter table sales drop constraint sales_payment_status_check;
alter table sales add constraint sales_payment_status_check
  check (payment_status in ('pending', 'paid', 'collected', 'declined', 'expired', 'not_collected', 'refund_due', 'not_started', 'amount_mismatch'));
alter table sales add column gateway_amount_pesewas bigint check (gateway_amount_pesewas > 0);
alter table sales add column refund_due_pesewas bigint check (refund_due_pesewas > 0);
update sales set refund_due_pesewas = total_pesewas where payment_status = 'refund_due';
-- The operator views of sales that need a person: held payments and refunds owed.
create index sales_attention_idx on sales (updated_at) where state = 'on_hold' or payment_status = 'refund_due';
