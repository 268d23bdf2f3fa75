-- Position reports rewrite a courier's last_lat, last_lng and last_position_at every few seconds. With
-- those columns indexed no report could update the row in place: each left a dead row behind and a new
-- entry in every index (31,000 dead rows for 1,001 couriers after 150 s of reports at 1,000 couriers),
-- waiting for autovacuum. Unindexed, and with room left on each page, a report is a heap-only update
-- whose old versions the page prunes by itself. The candidate query (CouriersService.available) reads
-- the on-duty couriers and orders them by distance or freshness: a few thousand narrow rows.
drop index couriers_position_idx;
drop index couriers_available_idx;
alter table couriers set (fillfactor = 50);

-- The dashboard's reference search filters one partner's orders by order_reference: with the column in
-- the partner's list index it is an index-only scan of the partner's entries instead of one heap page
-- per order (at a million orders over 100 partners, 10,000 scattered pages for one search).
drop index delivery_orders_partner_list_idx;
create index delivery_orders_partner_list_idx on delivery_orders (partner_id, created_at desc, id desc)
  include (order_reference);
