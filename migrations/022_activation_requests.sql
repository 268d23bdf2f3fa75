-- A partner's request for production access: one per partner, edited until submitted, then decided
-- by an operator (approval turns on partners.production_active in the same transaction).
create table activation_requests (
  id text primary key,
  partner_id text not null references partners (id),
  state text not null default 'draft' check (state in ('draft', 'submitted', 'approved', 'rejected')),
  business_name text,
  registration_number text,
  director_ghana_card text,
  settlement jsonb,
  digital_address text,
  contact_phone text,
  -- The member who last edited or submitted it (the dashboard's caller).
  updated_by_member text,
  submitted_at timestamptz,
  decided_at timestamptz,
  decided_by text,
  rejection_reason text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint activation_requests_partner_key unique (partner_id)
);
create index activation_requests_queue_idx on activation_requests (state, id);
