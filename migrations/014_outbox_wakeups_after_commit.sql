-- A NOTIFY inside a writing transaction makes PostgreSQL take its database-wide notify lock at
-- commit and hold it through the WAL flush, so every transaction that appended an event committed
-- one after another (no group commit). Writers now wake dispatchers after their commit, in a
-- separate, coalesced NOTIFY (Queryable.notify), and this trigger goes.
drop trigger outbox_events_notify on outbox_events;
drop function outbox_events_notify();
