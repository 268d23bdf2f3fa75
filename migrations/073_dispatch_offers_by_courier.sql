-- A courier's open offer (the courier app's screen and push, the sandbox courier's answers) is read
-- by courier: through the open offers' expiry index that read fetched every open offer's row to
-- find the courier's one (900 rows a read with 1,000 couriers on duty). At most one is open a courier.
create index dispatch_offers_courier_open_idx on dispatch_offers (courier_id, expires_at) where state = 'open';
