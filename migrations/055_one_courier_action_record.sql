-- One record per courier action: courier_actions (owned by modules/couriers) claims the action id in
-- the same transaction as the effect the action's handler makes (dispatch's offer answered, job step…)
-- and keeps what it answered; dispatch's own copy of the id, dispatch_actions, goes.

-- What an applied action answered beyond "applied" (a job action: the job's stage, the order's
-- status), answered again to a replay. Null for an action with nothing to tell (duty), or refused.
alter table courier_actions add column result jsonb;

-- dispatch_actions held only applied actions (written with their effect). A phone's action (its id a
-- UUID) is copied when courier_actions lacks it; one there gets dispatch's answer, and is settled when
-- it was left unsettled (outcome null: the process stopped between dispatch's commit and couriers'
-- settle, so its replays were answered "pending" until the week's retention). The sandbox courier's
-- ids (sandbox.<order>.<action>) are not copied: it records no actions any more, its steps being
-- guarded by the job's stage.
insert into courier_actions (courier_id, id, kind, outcome, reason, received_at, result)
select d.courier_id, d.action_id::uuid, d.kind, 'applied', null, d.at,
       case when d.result ? 'status'
            then jsonb_build_object('stage', d.result -> 'stage', 'status', d.result -> 'status')
       end
  from dispatch_actions d
  join couriers c on c.id = d.courier_id
 where d.action_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
on conflict (courier_id, id) do update
   set outcome = 'applied', reason = null, result = excluded.result
 where courier_actions.outcome is distinct from 'refused';

drop table dispatch_actions;
