-- Proof of delivery: the recipient's delivery code (kept only as a keyed hash) and the proofs a
-- courier gave (the code, a photo, a signature). Photos and signatures live in object storage; a
-- row names their key there.
create table delivery_codes (
  order_id text primary key,
  -- HMAC-SHA256 of the order id and the 4-digit code under a key derived from SECRETS_KEY:
  -- 10,000 codes are too few for a plain hash to protect them.
  code_hash text not null,
  -- Wrong codes entered since the code was issued; at the limit only a photo can prove the delivery.
  failed_attempts integer not null default 0 check (failed_attempts >= 0),
  issued_at timestamptz not null,
  verified_at timestamptz
);

create table delivery_proofs (
  id text primary key,
  order_id text not null,
  kind text not null check (kind in ('code', 'photo', 'signature')),
  -- Photos and signatures only: where the bytes are, what they are, how many.
  storage_key text,
  content_type text,
  size_bytes integer,
  courier_id text,
  taken_at timestamptz not null,
  created_at timestamptz not null,
  constraint delivery_proofs_media check ((kind = 'code') = (storage_key is null) and (storage_key is null) = (content_type is null) and (storage_key is null) = (size_bytes is null)),
  constraint delivery_proofs_storage_key unique (storage_key)
);
create index delivery_proofs_order_idx on delivery_proofs (order_id, taken_at);
-- A code proves a delivery once: a replayed verification finds it there.
create unique index delivery_proofs_one_code on delivery_proofs (order_id) where kind = 'code';
