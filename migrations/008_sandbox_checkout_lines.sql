-- The sandbox checkout page shows the bill behind the amount (a sale's items, delivery fee and
-- markup): [{description, quantity, unitPesewas}], or null when the payment has no bill (top-ups).
alter table sandbox_checkouts add column lines jsonb;
