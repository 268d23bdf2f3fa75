-- Every appended event paid for an index no query uses: listing and replaying an app's events go
-- through outbox_events_status_idx (app_id, delivery_status, created_at), which starts the same way.
drop index outbox_events_app_idx;
