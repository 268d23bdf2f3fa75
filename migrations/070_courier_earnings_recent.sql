-- The console's courier pay page lists the latest earnings of every courier, newest first: without
-- an index on the time alone that read sorted the whole table on each view (and each live update).
create index courier_earnings_earned_idx on courier_earnings (earned_at desc, id desc);
