-- A courier who let an offer expire may be offered the same job again after a pause (dispatch's
-- REOFFER_AFTER): in a small fleet the job would otherwise wait for an operator once everyone had
-- been tried. A decline still ends it for that courier. One open offer per job stays unique
-- (dispatch_offers_open_key); the pair is indexed for the "not again" read.
alter table dispatch_offers drop constraint dispatch_offers_once;
create index dispatch_offers_order_courier_idx on dispatch_offers (order_id, courier_id);
