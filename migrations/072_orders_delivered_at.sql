-- The dashboard's 30-day chart (created → delivered time, success rate) read, for each of a partner's
-- orders in the span, its heap row for the status and its 'delivered' move in delivery_order_events:
-- two lookups per order (about 5,100 orders for one partner at a million orders, 61 ms p99). The
-- order now keeps the time of its delivery, written by the move that delivers it, and the partner's
-- list index carries the status and that time, so the chart reads the partner's entries alone.
-- status and updated_at are already in other indexes (the boards', the sandbox's moving orders), so
-- no move was a heap-only update: carrying them here adds no cost to a move.
alter table delivery_orders add column delivered_at timestamptz;

-- Dropped before the fill, so the fill's new row versions need no entry in it; built again after.
drop index delivery_orders_partner_list_idx;

-- Nothing leaves 'delivered', and every move is one timeline entry: one 'delivered' move per order.
update delivery_orders o set delivered_at = e.at
  from delivery_order_events e
 where e.order_id = o.id and e.status = 'delivered';

create index delivery_orders_partner_list_idx on delivery_orders (partner_id, created_at desc, id desc)
  include (order_reference, status, delivered_at);

-- Only the chart's old join read this index (migration 067); every delivery paid for its entry.
drop index delivery_order_events_delivered_idx;
