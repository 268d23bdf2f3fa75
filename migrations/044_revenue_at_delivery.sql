-- Revenue at delivery (issue 26). A prepaid sale's money is held in `sales_undelivered` (a liability)
-- from its payment (`sale_payment`) until its delivery is delivered, which recognises its shares
-- (`sale_settlement`: vendor payable, platform commission, delivery revenue, partner markup payable),
-- as a cash-on-delivery sale's are at delivery. A failure before delivery owes it back from there
-- (`sale_undelivered_refund`), never touching a payable.

-- When the sale's shares were recognised; null for a paid prepaid sale until its delivery.
alter table sales add column earned_at timestamptz;

-- Recognised before this migration: cod sales at delivery, prepaid sales at payment, except paid
-- prepaid sales whose delivery is not delivered, which the statement below moves back.
update sales s set earned_at = s.settled_at
 where s.settled_at is not null
   and not (s.payment_method = 'online' and s.state = 'confirmed'
            and not exists (select 1 from delivery_orders d where d.id = s.delivery_order_id and d.status = 'delivered'));

-- Each such sale's shares go back into `sales_undelivered`: one balanced journal per sale,
-- `sale_settlement_deferred`, the exact negative of its shares in its old settlement, dated now like
-- any journal. A share a live payout already covers (paid out, or on its way) cannot come off the
-- payable, which that payout already debited: it goes on the payee's receivable instead (the payee
-- owes it back; its next payout deducts it, and the sale's delivery credits it to the payable again),
-- so nothing is paid twice and no payable goes negative. Its delivery then posts
-- `sale_settlement_at_delivery` (its old `sale_settlement` keeps that kind for this sale).
-- The journal id is a ULID: this moment's time, the sale id's random part.
with recursive clock(n, t) as (
  select (extract(epoch from clock_timestamp()) * 1000)::bigint, ''::text
  union all
  select n / 32, substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (n % 32)::int + 1, 1) || t from clock where length(t) < 10
),
deferred as (
  select s.id as sale_id, j.id as settled_by,
         'jrn_' || (select t from clock where length(t) = 10) || substr(s.id, 16, 16) as journal_id
    from sales s
    join ledger_journals j on j.kind = 'sale_settlement' and j.subject_id = s.id
    left join delivery_orders d on d.id = s.delivery_order_id
   where s.payment_method = 'online' and s.state = 'confirmed' and d.status is distinct from 'delivered'
),
journals as (
  insert into ledger_journals (id, kind, subject_id, memo, created_at)
  select journal_id, 'sale_settlement_deferred', sale_id, 'paid, not yet delivered: shares held until delivery (migration 044)', now() from deferred
)
insert into ledger_entries (journal_id, account, amount_pesewas, created_at)
select x.journal_id,
       case
         when e.account like 'gateway_clearing:%' then 'sales_undelivered'
         when e.account like 'vendor_payable:%' and exists (
           select 1 from payout_lines l where l.journal_id = x.settled_by and l.payee = 'vendor:' || split_part(e.account, ':', 2) and not l.released)
           then 'vendor_receivable:' || split_part(e.account, ':', 2)
         when e.account like 'partner_markup_payable:%' and exists (
           select 1 from payout_lines l where l.journal_id = x.settled_by and l.payee = 'partner:' || split_part(e.account, ':', 2) and not l.released)
           then 'partner_markup_receivable:' || split_part(e.account, ':', 2)
         else e.account
       end,
       -e.amount_pesewas, now()
  from deferred x join ledger_entries e on e.journal_id = x.settled_by;

-- The sales job finds paid prepaid sales whose delivery ended elsewhere (services served apart).
create index sales_unearned_idx on sales (updated_at) where state = 'confirmed' and payment_method = 'online' and earned_at is null;
