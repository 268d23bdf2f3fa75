-- A test clock's delete ends its open orders: without an index on the clock, finding them read
-- every order. Only sandbox orders on a clock have one, so the index holds those alone.
create index delivery_orders_test_clock_idx on delivery_orders (test_clock_id)
  where test_clock_id is not null;
