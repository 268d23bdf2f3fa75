-- Safe-catalog: vendors, their products and variants, and sales (single-vendor orders) with their lines.

create table vendors (
  id text primary key,
  name text not null,
  syndicatable boolean not null default false,
  -- Share of the subtotal the platform keeps, in basis points (1000 = 10%): integers keep the
  -- settlement arithmetic exact.
  commission_bps integer not null check (commission_bps between 0 and 10000),
  pickup_contact_person text not null,
  -- E.164, normalised on the way in.
  pickup_contact_phone text not null,
  pickup_address text not null,
  pickup_lat double precision not null check (pickup_lat between -90 and 90),
  pickup_lng double precision not null check (pickup_lng between -180 and 180),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table products (
  id text primary key,
  vendor_id text not null references vendors (id),
  title text not null,
  description text not null,
  images text[] not null default '{}',
  category text,
  active boolean not null default true,
  -- active and the vendor syndicatable, kept in step by the service (one transaction with any
  -- change of either): partner reads then walk one small partial index instead of joining and
  -- filtering 100k rows per page.
  listed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- catalog.list pages: keyset on the product id, all vendors or one.
create index products_listed_idx on products (id) where listed;
create index products_vendor_listed_idx on products (vendor_id, id) where listed;
-- Operator lists and the vendor flip (which rewrites `listed` for one vendor's products).
create index products_vendor_idx on products (vendor_id, id);

create table product_variants (
  id text primary key,
  product_id text not null references products (id),
  -- Order of the variants as the operator gave them.
  position integer not null,
  label text not null,
  price_pesewas bigint not null check (price_pesewas > 0),
  -- Units held by the vendor and not yet sold; `reserved` of them are held by open sales. The
  -- check makes overselling impossible whatever the code does: available = stock - reserved >= 0.
  stock integer not null check (stock >= 0),
  reserved integer not null default 0 check (reserved >= 0 and reserved <= stock),
  -- Operator switch (PATCH in_stock: false): the variant sells nothing whatever its stock.
  sellable boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (product_id, position)
);

create table sales (
  id text primary key,
  app_id text not null references apps (id),
  partner_id text not null references partners (id),
  environment text not null check (environment in ('staging', 'production')),
  -- Human-facing (e.g. SC-7K3M9Q2PXD); the gateway sees `client_reference` instead. Its unique
  -- constraint is named below: the default name would be sales_reference_key, which belongs to
  -- external_reference (the name src/platform/db/sqlstate.ts turns into 409 DUPLICATE_REFERENCE).
  reference text not null,
  client_reference text not null unique,
  -- The partner's id for the order. An attempt that answered 4xx or 502 after its row was written
  -- (gateway or delivery failure) gives it back: moved to released_reference, so a retry may reuse it.
  external_reference text,
  released_reference text,
  vendor_id text not null references vendors (id),
  payment_method text not null check (payment_method in ('online', 'cod')),
  state text not null check (state in ('awaiting_payment', 'awaiting_delivery', 'confirmed', 'failed')),
  payment_status text not null
    check (payment_status in ('pending', 'paid', 'collected', 'declined', 'expired', 'not_collected', 'refund_due', 'not_started')),
  failure_reason text,
  -- Incremented on every state change; numbers the sale's webhook events.
  version integer not null default 1,
  buyer_name text not null,
  buyer_phone text not null,
  delivery_address text not null,
  delivery_area_id text,
  -- The buyer's own point when given; else null and the quote point below is an approximation.
  delivery_lat double precision,
  delivery_lng double precision,
  quote_lat double precision not null,
  quote_lng double precision not null,
  quote_source text not null check (quote_source in ('coordinates', 'area', 'address', 'default')),
  subtotal_pesewas bigint not null check (subtotal_pesewas > 0),
  commission_pesewas bigint not null check (commission_pesewas >= 0 and commission_pesewas <= subtotal_pesewas),
  delivery_fee_pesewas bigint not null check (delivery_fee_pesewas >= 0),
  markup_pesewas bigint not null check (markup_pesewas >= 0 and markup_pesewas <= subtotal_pesewas),
  total_pesewas bigint not null check (total_pesewas = subtotal_pesewas + delivery_fee_pesewas + markup_pesewas),
  gateway text,
  checkout_id text,
  checkout_url text,
  -- Online: an unpaid sale fails after this instant (and its stock comes back).
  expires_at timestamptz,
  delivery_order_id text references delivery_orders (id),
  -- Whoever creates the delivery order claims the sale first, so two instances never both do.
  dispatch_claimed_at timestamptz,
  settled_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (payment_method = 'online' or markup_pesewas = 0),
  constraint sales_human_reference_key unique (reference),
  constraint sales_reference_key unique (app_id, environment, external_reference)
);
-- The expiry job: unpaid online sales by deadline.
create index sales_expiry_idx on sales (expires_at) where state = 'awaiting_payment';
-- The dispatch job: sales owed a delivery order.
create index sales_undispatched_idx on sales (created_at)
  where delivery_order_id is null and (state = 'awaiting_delivery' or (state = 'confirmed' and payment_method = 'online'));
-- The delivery move listener and the reconciler find a sale by its delivery order.
create index sales_delivery_idx on sales (delivery_order_id) where delivery_order_id is not null;
create index sales_awaiting_delivery_idx on sales (updated_at) where state = 'awaiting_delivery';

create table sale_items (
  sale_id text not null references sales (id),
  line integer not null,
  product_id text not null references products (id),
  variant_id text not null references product_variants (id),
  -- Captured at creation: later catalog edits never change a sale.
  title text not null,
  label text not null,
  quantity integer not null check (quantity > 0),
  unit_price_pesewas bigint not null check (unit_price_pesewas > 0),
  primary key (sale_id, line)
)
