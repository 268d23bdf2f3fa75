-- Failed deliveries and returns: a "could not deliver" outcome sends an order out again or back to
-- its pickup point (returning → returned). Additive: two statuses, the attempt count, the latest
-- failure's reason and note, and the return fee charged to a wallet-funded order that came back.
alter table delivery_orders drop constraint delivery_orders_status_check;
alter table delivery_orders add constraint delivery_orders_status_check
  check (status in ('placed', 'accepted', 'pickedUp', 'in_transit', 'delivered', 'returning', 'returned', 'cancelled', 'failed'));

-- Trips to the recipient: 1 on the first in_transit, one more for each further attempt.
alter table delivery_orders add column delivery_attempts integer not null default 0 check (delivery_attempts >= 0);
alter table delivery_orders add column failure_reason text
  check (failure_reason in ('recipient_absent', 'refused', 'wrong_address', 'other'));
alter table delivery_orders add column failure_note text;
-- Set once, with the ledger's order_return_fee journal, when a wallet-funded order is returned.
alter table delivery_orders add column return_fee_pesewas bigint check (return_fee_pesewas >= 0);
