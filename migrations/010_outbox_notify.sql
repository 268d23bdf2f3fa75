-- Dispatchers are woken by commits instead of waiting for their next poll: every statement that
-- appends outbox events notifies once, delivered when (and only if) its transaction commits. The
-- channel names the schema, so deployments sharing one database do not wake each other.
create function outbox_events_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('outbox_events_' || tg_table_schema, '');
  return null;
end $$;

create trigger outbox_events_notify after insert on outbox_events
  for each statement execute function outbox_events_notify();
