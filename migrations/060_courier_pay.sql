-- Couriers paid: pay rules per zone and vehicle (a new version row per change, in force from its
-- effective_from), the operators' pay policy (versioned the same way), and each courier's earnings,
-- one row per order and occasion (delivered, or one failed attempt), booked with its ledger journal
-- in the delivery move's transaction. The earnings module owns all three.
create table courier_pay_rules (
  id text primary key,
  -- A dispatch zone id ('greater-accra'), or 'default' for zones without a rule of their own.
  zone text not null check (zone ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(zone) <= 60),
  vehicle text not null check (vehicle in ('motorbike', 'car', 'van')),
  version integer not null check (version > 0),
  base_pesewas bigint not null check (base_pesewas between 0 and 1000000),
  per_km_pesewas bigint not null check (per_km_pesewas between 0 and 100000),
  per_failed_attempt_pesewas bigint not null check (per_failed_attempt_pesewas between 0 and 1000000),
  effective_from timestamptz not null,
  -- The operator's id, or "admin-token".
  created_by text not null,
  created_at timestamptz not null,
  unique (zone, vehicle, version)
);
-- The version in force at a moment: the latest effective_from at or before it.
create index courier_pay_rules_in_force_idx on courier_pay_rules (zone, vehicle, effective_from desc, version desc);

create table courier_pay_policy (
  version integer primary key check (version > 0),
  -- Cash a courier holds (collected on delivery) is set against each earning when true.
  net_cod_cash boolean not null,
  effective_from timestamptz not null,
  created_by text not null,
  created_at timestamptz not null
);

create table courier_earnings (
  id text primary key,
  order_id text not null,
  courier_id text not null references couriers (id),
  -- 'delivered', or 'failed_attempt:<n>' for the order's n-th trip that could not deliver.
  occasion text not null check (occasion = 'delivered' or occasion ~ '^failed_attempt:[0-9]{1,3}$'),
  -- The pay rule version that priced it; null when no rule was in force (amount 0).
  rule_id text references courier_pay_rules (id),
  zone text,
  vehicle text not null,
  -- The order's pickup → drop-off road estimate (pricing's), in metres.
  road_m integer not null check (road_m >= 0),
  amount_pesewas bigint not null check (amount_pesewas >= 0),
  -- The part of the amount set against cash the courier held (the policy's netting), 0 otherwise.
  netted_pesewas bigint not null default 0 check (netted_pesewas between 0 and amount_pesewas),
  earned_at timestamptz not null,
  -- Exactly once: one earning per order and occasion, whoever books it and however often.
  unique (order_id, occasion)
);
create index courier_earnings_courier_idx on courier_earnings (courier_id, earned_at desc);

-- Couriers become payees of the payouts module: their courier_payable is paid out like a vendor's
-- payable, to a mobile money wallet only, through the same destinations, maker-checker changes,
-- verification and exactly-once sending. A destination (and a change) names exactly one payee.
alter table payout_destinations add column courier_id text references couriers (id);
alter table payout_destinations drop constraint payout_destinations_check;
alter table payout_destinations add constraint payout_destinations_one_payee
  check (num_nonnulls(vendor_id, partner_id, courier_id) = 1 and (courier_id is null or kind = 'mobile_money'));
alter table payout_destination_changes add column courier_id text references couriers (id);
alter table payout_destination_changes drop constraint payout_destination_changes_check;
alter table payout_destination_changes add constraint payout_destination_changes_one_payee
  check (num_nonnulls(vendor_id, partner_id, courier_id) = 1 and (courier_id is null or kind = 'mobile_money'));
