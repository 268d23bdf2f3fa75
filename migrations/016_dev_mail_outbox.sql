-- Mail kept by the development outbox (integrations/mail) when no SMTP server is configured,
-- readable at /dev/mail. Never used when SMTP_URL is set.
create table dev_mail_outbox (
  id text primary key,
  to_address text not null,
  subject text not null,
  body text not null,
  created_at timestamptz not null default now()
);
