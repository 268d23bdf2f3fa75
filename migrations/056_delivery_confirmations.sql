-- A delivery proved by a photo or signature instead of the recipient's code is unconfirmed until the
-- recipient confirms it (or disputes it) through a texted link, or an operator accepts it. Until then
-- the sale's shares are not paid out. Only a hash of the link's token is kept.
create table delivery_confirmations (
  order_id text primary key,
  token_hash text not null,
  state text not null check (state in ('pending', 'confirmed', 'disputed', 'accepted')),
  courier_id text,
  -- How far the courier's last reported position was from the drop-off, and when it was reported
  -- (null when the order has no drop-off point to measure from).
  distance_m integer check (distance_m >= 0),
  position_at timestamptz,
  created_at timestamptz not null,
  texted_at timestamptz,
  decided_at timestamptz,
  -- 'recipient', or the operator who accepted it.
  decided_by text,
  dispute_note text,
  constraint delivery_confirmations_token unique (token_hash),
  constraint delivery_confirmations_decided check ((state = 'pending') = (decided_at is null))
);
-- The operators' list: what is still waiting, oldest first.
create index delivery_confirmations_open_idx on delivery_confirmations (created_at) where state in ('pending', 'disputed');
