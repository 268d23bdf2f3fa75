-- Operators list every partner's sales newest first, a page at a time (keyset on created_at, id),
-- optionally for one partner (the dashboard's own list walks the second index too).
create index sales_newest_idx on sales (created_at desc, id desc);
create index sales_partner_newest_idx on sales (partner_id, created_at desc, id desc);
