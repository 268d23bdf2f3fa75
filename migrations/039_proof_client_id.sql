-- A photo or signature uploaded from the courier app carries the phone's own id for it, so that an
-- upload replayed after a lost answer (a patchy connection, the offline queue) is stored once.
alter table delivery_proofs add column client_id text;
alter table delivery_proofs add constraint delivery_proofs_client unique (order_id, client_id);
