import { type Queryable, WITHOUT_FLUSH_WAIT } from '../../platform/db/index.ts';
import type { Vehicle } from './domain/courier.ts';

export interface CourierRow {
  id: string;
  name: string;
  phone: string;
  vehicle: Vehicle;
  zones: string[];
  active: boolean;
  on_duty: boolean;
  /** The sandbox courier that takes staging orders through dispatch (never production's). */
  simulated: boolean;
  last_lat: number | null;
  last_lng: number | null;
  last_position_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CourierFilter {
  active?: boolean;
  onDuty?: boolean;
  simulated?: boolean;
  /** Name or phone, case-insensitive substring. */
  search?: string;
  /** Keyset: couriers with an id after this one. */
  after?: string;
  limit: number;
}

const COLS =
  'id, name, phone, vehicle, zones, active, on_duty, simulated, last_lat, last_lng, last_position_at, created_at, updated_at';

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * When a position listener has anything to do, as a SQL boolean expression of its own module's,
 * over its own tables, for the courier whose id is the SQL expression `courierId`. It is evaluated
 * inside the report's own update, so a report that concerns no listener (a courier without a job)
 * costs that one statement.
 */
export type PositionCondition = (courierId: string) => string;

export const couriersRepository = {
  async insert(
    db: Queryable,
    row: { id: string; name: string; phone: string; vehicle: Vehicle; zones: string[]; now: Date },
  ): Promise<CourierRow> {
    const rows = await db.query<CourierRow>(
      `insert into couriers (id, name, phone, vehicle, zones, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $6) returning ${COLS}`,
      [row.id, row.name, row.phone, row.vehicle, row.zones, row.now],
    );
    return rows[0]!;
  },

  /** The deployment's one simulated courier, created on first use (a concurrent creation is the same row). */
  async ensureSimulated(
    db: Queryable,
    row: { id: string; name: string; phone: string; now: Date },
  ): Promise<CourierRow> {
    await db.query(
      `insert into couriers (id, name, phone, vehicle, zones, simulated, created_at, updated_at) values ($1, $2, $3, 'motorbike', '{}', true, $4, $4)
       on conflict do nothing`,
      [row.id, row.name, row.phone, row.now],
    );
    return (await db.query<CourierRow>(`select ${COLS} from couriers where simulated`))[0]!;
  },

  async get(db: Queryable, id: string): Promise<CourierRow | undefined> {
    return (await db.query<CourierRow>(`select ${COLS} from couriers where id = $1`, [id]))[0];
  },

  async namesOf(
    db: Queryable,
    ids: readonly string[],
  ): Promise<Array<{ id: string; name: string }>> {
    return db.query('select id, name from couriers where id = any($1::text[])', [ids]);
  },

  async activeAmong(db: Queryable, ids: readonly string[]): Promise<Array<{ id: string }>> {
    return db.query('select id from couriers where id = any($1::text[]) and active', [ids]);
  },

  async byPhone(db: Queryable, phone: string): Promise<CourierRow | undefined> {
    return (
      await db.query<CourierRow>(`select ${COLS} from couriers where phone = $1`, [phone])
    )[0];
  },

  async list(db: Queryable, f: CourierFilter): Promise<CourierRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (v: unknown) => `$${params.push(v)}`;
    if (f.active !== undefined) where.push(`active = ${param(f.active)}`);
    if (f.onDuty !== undefined) where.push(`on_duty = ${param(f.onDuty)}`);
    if (f.simulated !== undefined) where.push(`simulated = ${param(f.simulated)}`);
    if (f.search) {
      const p = param(`%${escapeLike(f.search)}%`);
      where.push(`(name ilike ${p} escape '\\' or phone like ${p} escape '\\')`);
    }
    if (f.after) where.push(`id > ${param(f.after)}`);
    params.push(f.limit);
    return db.query<CourierRow>(
      `select ${COLS} from couriers ${where.length ? `where ${where.join(' and ')}` : ''} order by id limit $${params.length}`,
      params,
    );
  },

  async update(
    db: Queryable,
    id: string,
    patch: { name?: string; phone?: string; vehicle?: Vehicle; zones?: string[]; active?: boolean },
    now: Date,
  ): Promise<CourierRow | undefined> {
    const rows = await db.query<CourierRow>(
      `update couriers set name = coalesce($2, name), phone = coalesce($3, phone), vehicle = coalesce($4, vehicle),
         zones = coalesce($5, zones), active = coalesce($6, active),
         -- A deactivated courier is off duty at once.
         on_duty = case when $6 = false then false else on_duty end, updated_at = $7
       where id = $1 returning ${COLS}`,
      [
        id,
        patch.name ?? null,
        patch.phone ?? null,
        patch.vehicle ?? null,
        patch.zones ?? null,
        patch.active ?? null,
        now,
      ],
    );
    return rows[0];
  },

  /** Only an active courier can go on duty; answers undefined for an unknown or inactive one. */
  async setDuty(
    db: Queryable,
    id: string,
    onDuty: boolean,
    now: Date,
  ): Promise<CourierRow | undefined> {
    const rows = await db.query<CourierRow>(
      `update couriers set on_duty = $2, updated_at = $3 where id = $1 and (active or not $2) returning ${COLS}`,
      [id, onDuty, now],
    );
    return rows[0];
  },

  /** Position listeners' conditions as one SQL boolean array over the moved courier (true where a listener has none). */
  concernsOf(conditions: readonly (PositionCondition | undefined)[]): string {
    const each = conditions.map((when) => (when ? `(${when('moved.id')})` : 'true'));
    return `array[${each.join(', ')}]::boolean[]`;
  },

  /**
   * Keeps the newest report only: one arriving late (replayed from a phone's queue) does not win.
   * Its commit does not wait for the WAL flush: run it on its own, never inside a unit of work
   * (whose whole commit it would relax). `concerns`: the listeners' conditions (concernsOf),
   * answered in their order.
   */
  async reportPosition(
    db: Queryable,
    report: { id: string; lat: number; lng: number; at: Date },
    concerns: string,
  ): Promise<(Pick<CourierRow, 'name' | 'vehicle'> & { concerns: boolean[] }) | undefined> {
    const rows = await db.query<Pick<CourierRow, 'name' | 'vehicle'> & { concerns: boolean[] }>(
      `with moved as (
         update couriers set last_lat = $2, last_lng = $3, last_position_at = $4
          where id = $1 and active and (last_position_at is null or last_position_at < $4)
         returning id, name, vehicle, ${WITHOUT_FLUSH_WAIT}
       ) select name, vehicle, ${concerns} as concerns from moved`,
      [report.id, report.lat, report.lng, report.at],
    );
    return rows[0];
  },

  /**
   * Active, on-duty couriers seen since `seenSince`, optionally restricted to vehicles, a zone and a
   * box of `near.km` around `near`, leaving out `exclude`. The position columns have no index (migration
   * 066): reports update them every few seconds in place, and this reads the few thousand on duty.
   * Newest first, or with `near` nearest first (an equirectangular distance, exact enough to pick
   * the few closest; the caller ranks those precisely).
   */
  async available(
    db: Queryable,
    q: {
      seenSince: Date;
      vehicles?: readonly Vehicle[];
      zone?: string;
      near?: { lat: number; lng: number; km?: number };
      exclude?: readonly string[];
      limit: number;
    },
  ): Promise<CourierRow[]> {
    const cosLat = q.near ? Math.cos((q.near.lat * Math.PI) / 180) : 1;
    const dLat = q.near?.km !== undefined ? q.near.km / 110.5 : null;
    const box =
      q.near && dLat !== null
        ? [
            q.near.lat - dLat,
            q.near.lat + dLat,
            q.near.lng - dLat / cosLat,
            q.near.lng + dLat / cosLat,
          ]
        : [null, null, null, null];
    return db.query<CourierRow>(
      `select ${COLS} from couriers
       where active and on_duty and not simulated and last_position_at >= $1
         and ($2::text[] is null or vehicle = any($2)) and ($3::text is null or $3 = any(zones))
         and ($5::text[] is null or not (id = any($5)))
         and ($9::float8 is null or (last_lat between $9 and $10 and last_lng between $11 and $12))
       order by case when $6::float8 is null then 0 else (last_lat - $6) * (last_lat - $6) + ((last_lng - $7) * $8) * ((last_lng - $7) * $8) end,
         last_position_at desc limit $4`,
      [
        q.seenSince,
        q.vehicles ?? null,
        q.zone ?? null,
        q.limit,
        q.exclude?.length ? q.exclude : null,
        q.near?.lat ?? null,
        q.near?.lng ?? null,
        cosLat,
        ...box,
      ],
    );
  },
};
