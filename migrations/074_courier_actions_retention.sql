-- Couriers' recorded actions are kept a week (a phone's queue replays within hours) and then deleted
-- by the couriers module's retention job, for every courier, whether or not they sign in again: the
-- job reads the expired rows by their time.
create index courier_actions_received_idx on courier_actions (received_at);
