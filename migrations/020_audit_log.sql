-- The audit log: who changed what, append-only. A trigger refuses every UPDATE, DELETE and TRUNCATE,
-- so not even the application's own role can rewrite history.
create table audit_log (
  id text primary key,
  at timestamptz not null,
  actor_kind text not null check (actor_kind in ('operator', 'admin_token', 'member', 'system')),
  actor_id text not null,
  action text not null,
  target_type text,
  target_id text,
  before jsonb,
  after jsonb,
  ip text,
  user_agent text
);
-- Newest first, by time then id (keyset pagination), overall and per actor and target.
create index audit_log_at_idx on audit_log (at desc, id desc);
create index audit_log_actor_idx on audit_log (actor_id, at desc, id desc);
create index audit_log_target_idx on audit_log (target_type, target_id, at desc, id desc);

create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only: % refused', tg_op using errcode = '55000';
end
$$;
create trigger audit_log_no_update before update or delete on audit_log for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only();
