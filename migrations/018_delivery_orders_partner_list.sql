-- The dashboard lists a partner's orders newest first, a page at a time (keyset on created_at, id).
create index delivery_orders_partner_list_idx on delivery_orders (partner_id, created_at desc, id desc);
