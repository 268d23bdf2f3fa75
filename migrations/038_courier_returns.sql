-- Returns through the courier app: a courier's could-not-deliver with no attempt left sends the job
-- back to the pickup (stage returning), and handing the goods back there ends it (stage returned).
-- Additive: two more assignment stages.
alter table dispatch_assignments drop constraint dispatch_assignments_stage_check;
alter table dispatch_assignments add constraint dispatch_assignments_stage_check
  check (stage in ('accepted', 'at_pickup', 'picked_up', 'at_dropoff', 'delivered', 'failed', 'returning', 'returned'));
