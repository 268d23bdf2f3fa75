-- A wallet-funded order's fee is debited in the order's own statement by a guarded update, which
-- moves no row when the balance less the fee would pass minus the partner's credit limit (and so
-- waits for no other spend's lock). The journal's insert hands whether it moved to this function,
-- so a refusal aborts the one statement that writes the order, its journal and the balance
-- together: SQLSTATE PP402, which the platform answers as INSUFFICIENT_WALLET_BALANCE.
create function wallet_debited(p_partner text, p_moved boolean) returns boolean
language plpgsql as $$
begin
  if not p_moved then
    raise exception 'the wallet of % cannot cover this debit', p_partner using errcode = 'PP402';
  end if;
  return true;
end $$;
