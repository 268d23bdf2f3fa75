/**
 * Sizes of the tables that grow with couriers and webhooks (issue 30's soak): rows, dead rows and
 * bytes (table, indexes and TOAST), read from PostgreSQL's statistics on a connection whose
 * search_path is the bench schema. Statistics lag a little (they are flushed about once a second),
 * which a per-minute sample does not notice.
 */
import type pg from 'pg';

/** courier_actions: the actions kept for replays; dispatch_trail: position points of couriers on jobs. */
export const GROWING_TABLES = [
  'courier_actions',
  'dispatch_trail',
  'couriers',
  'outbox_events',
  'webhook_attempts',
] as const;

export interface TableSize {
  table: string;
  rows: number;
  deadRows: number;
  bytes: number;
}

export async function tableSizes(
  c: pg.Client,
  tables: readonly string[] = GROWING_TABLES,
): Promise<TableSize[]> {
  const { rows } = await c.query<{ table: string; rows: string; dead: string; bytes: string }>(
    `select t as table, coalesce(s.n_live_tup, 0) as rows, coalesce(s.n_dead_tup, 0) as dead,
            pg_total_relation_size(format('%I.%I', current_schema(), t)) as bytes
       from unnest($1::text[]) with ordinality as u(t, k)
       left join pg_stat_user_tables s on s.schemaname = current_schema() and s.relname = t
      order by k`,
    [tables],
  );
  return rows.map((r) => ({
    table: r.table,
    rows: Number(r.rows),
    deadRows: Number(r.dead),
    bytes: Number(r.bytes),
  }));
}

export const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
