-- Delivered events (and those that had nowhere to go) are deleted with their attempts once older than
-- WEBHOOK_RETENTION_DAYS; this index finds them oldest first without reading the pending or dead ones.
create index outbox_events_retention_idx on outbox_events (created_at)
  where delivery_status in ('delivered', 'no_destination');
