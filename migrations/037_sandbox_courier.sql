-- The simulated (sandbox) courier: one courier record per deployment that takes staging orders
-- through dispatch. It is never offered production jobs nor listed as available; real couriers
-- are never offered staging jobs. Its phone is not a number, so nobody can sign in as it.
alter table couriers add column simulated boolean not null default false;
create unique index couriers_one_simulated on couriers (simulated) where simulated;

-- Staging orders waiting for the old direct-move sandbox courier become waiting dispatch jobs, so the
-- simulated courier takes them on (staging orders already under way are finished by hand, if at all).
insert into dispatch_jobs (order_id, environment, state, created_at, updated_at)
select id, 'staging', 'waiting', created_at, updated_at from delivery_orders
 where environment = 'staging' and status = 'placed'
on conflict do nothing;
