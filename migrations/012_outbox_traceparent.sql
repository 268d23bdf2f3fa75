-- The W3C traceparent of the request that wrote a webhook event, when tracing is on: its delivery
-- continues that trace and sends it to the partner.
alter table outbox_events add column traceparent text;
