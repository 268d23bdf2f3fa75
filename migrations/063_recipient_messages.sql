-- Recipient messages (issue 31, item 3): texts to an order's recipient at assignment, when the
-- courier is near, at delivery and when a delivery fails; each recorded in the transaction of the
-- change that causes it, sent after the commit by claim (lease) and retried; charged to the partner's
-- wallet in the same transaction (journal recipient_message, subject the message).

-- Per app: which messages go, the sender name and the language. An app without a row gets the
-- defaults (only the delivery code at assignment, as before this migration; English; the platform's
-- sender id).
create table message_settings (
  app_id text primary key,
  on_assigned boolean not null default true,
  on_courier_near boolean not null default false,
  on_delivered boolean not null default false,
  on_delivery_failed boolean not null default false,
  sender_name text,
  language text not null default 'en' check (language in ('en', 'tw', 'ga')),
  updated_at timestamptz not null
);

create table recipient_messages (
  id text primary key,
  order_id text not null,
  app_id text not null,
  partner_id text not null,
  kind text not null check (kind in ('assigned', 'courier_near', 'delivered', 'delivery_failed')),
  -- One message per order, kind, channel and occasion (the order's version for a failure: one per
  -- failed attempt; 0 otherwise): a repeated trigger inserts nothing.
  occasion integer not null,
  channel text not null check (channel in ('sms', 'whatsapp')),
  to_number text not null,
  sender_name text,
  language text not null,
  -- Blanked once sent or given up on: the assignment's text carries the delivery code, which the
  -- proof module keeps only as a keyed hash.
  body text not null,
  segments integer not null,
  cost_pesewas integer not null check (cost_pesewas >= 0),
  status text not null check (status in ('queued', 'sending', 'sent', 'delivered', 'failed', 'skipped')),
  skip_reason text,
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  provider_message_id text,
  last_error text,
  created_at timestamptz not null,
  sent_at timestamptz,
  reported_at timestamptz,
  unique (order_id, kind, channel, occasion)
);
-- The sender's claim reads only what waits (queued, or sending past its lease), due first.
create index recipient_messages_due_idx on recipient_messages (next_attempt_at)
  where status in ('queued', 'sending');
-- Delivery reports name the provider's message id.
create unique index recipient_messages_provider_idx on recipient_messages (provider_message_id)
  where provider_message_id is not null;
create index recipient_messages_partner_idx on recipient_messages (partner_id, created_at desc);

-- Numbers that answered STOP (or UNSUBSCRIBE…): every later message to them is skipped. START removes the row.
create table message_opt_outs (
  phone text primary key,
  keyword text not null,
  created_at timestamptz not null
);
