-- Server-side sessions of the web pages (owned by modules/sessions). The cookie carries a random
-- 256-bit id; only its SHA-256 is stored, so a leaked table cannot be replayed as cookies.
-- subject_kind lets operators' pages share the same store later.
create table web_sessions (
  id_hash text primary key,
  subject_kind text not null check (subject_kind in ('member', 'operator')),
  subject_id text not null,
  -- The synchronizer token every form of this session carries (CSRF).
  csrf_token text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  -- The absolute end; the idle end is last_seen_at plus the idle timeout.
  expires_at timestamptz not null
);
create index web_sessions_subject_idx on web_sessions (subject_kind, subject_id);
