-- Multi-drop: dispatch may offer one courier several jobs with the same pickup as one batch. Each
-- job keeps its own offer and assignment rows (one open offer per job stays unique); the rows of one
-- batch share batch_id (the id of its first offer) and carry their drop's place in the route (stop,
-- 1 for the first drop). A single job has neither. An operator reassigning a job out of a batch
-- gives it an assignment without them: it is single from then on.
alter table dispatch_offers add column batch_id text;
alter table dispatch_offers add column stop integer;
alter table dispatch_assignments add column batch_id text;
alter table dispatch_assignments add column stop integer;
-- Accept, decline and the courier's screen read a batch's open offers together.
create index dispatch_offers_batch_idx on dispatch_offers (batch_id) where batch_id is not null and state = 'open';
-- When the parcel is ready at the pickup (orders.create's pickup_ready_at): a batch leaves the
-- pickup once all its parcels are, and must still reach each drop by its deadline.
alter table dispatch_jobs add column pickup_ready_at timestamptz;
