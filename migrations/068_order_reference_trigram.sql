-- The console board's reference search matches `order_reference ilike '%term%'` across every
-- partner's orders: a pattern with a leading wildcard cannot use a btree, so at a million orders the
-- search read every order (a parallel scan, 1.9 s p99). A trigram index answers it from the term's
-- trigrams. The extension lives in public (one per database, whatever schema a deployment or a test
-- migrates) and the operator class is named there, so every schema's index finds it; pg_trgm is a
-- trusted extension: the database's owner, or a role with CREATE on it, may create it.
create extension if not exists pg_trgm with schema public;
create index delivery_orders_reference_trgm_idx on delivery_orders
  using gin (order_reference public.gin_trgm_ops);
