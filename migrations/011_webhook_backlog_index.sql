-- The metrics scrape counts pending and dead webhook events and finds the oldest pending one; this
-- index holds only those events, so the count stays cheap however many were delivered.
create index outbox_events_backlog_idx on outbox_events (delivery_status, created_at)
  where delivery_status in ('pending', 'dead');
