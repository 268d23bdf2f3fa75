-- USSD tracking finds an order by the caller's phone (the recipient's, as the network reports it)
-- and the code they type: without this index every lookup read the whole orders table; with it a
-- lookup reads the few orders sent to that one phone, newest first.
create index delivery_orders_customer_phone_idx on delivery_orders (customer_phone, created_at desc);
