-- Mail waiting to leave (integrations/mail): written in the same transaction as the change that
-- causes it, then handed to the mailer (SMTP, or the development outbox) by the mail worker.
-- status: pending (next_attempt_at is when it is due, or when a worker's lease on it ends),
-- sent, or dead (gave up after the attempt limit; last_error says why). The body carries one-time
-- links, so it is blanked ('') once the message is sent or dead.
create table mail_queue (
  id text primary key,
  to_address text not null,
  subject text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'dead')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);

create index mail_queue_due on mail_queue (next_attempt_at) where status = 'pending';
