-- The mail worker deletes sent and dead messages once they are older than MAIL_RETENTION_DAYS,
-- by when they finished (sent, or last tried); this index finds them without reading the pending ones.
create index mail_queue_finished on mail_queue ((coalesce(sent_at, next_attempt_at))) where status <> 'pending';
