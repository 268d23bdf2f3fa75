-- An order's first timeline entry (placed, at its creation) is read from the order row itself,
-- so creating an order writes one row fewer; the events table keeps the moves after it.
delete from delivery_order_events where version = 1;
