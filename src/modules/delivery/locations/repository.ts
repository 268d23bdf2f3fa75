import type { Queryable } from '../../../platform/db/index.ts';

export interface LocationRow {
  id: string;
  name: string;
  region: string;
  zone: string;
  lat: number | null;
  lng: number | null;
  created_at: Date;
}

const COLS = 'id, name, region, zone, lat, lng, created_at';

export const locationsRepository = {
  async insert(
    db: Queryable,
    loc: {
      id: string;
      name: string;
      region: string;
      zone: string;
      lat: number | null;
      lng: number | null;
    },
  ): Promise<LocationRow> {
    const rows = await db.query<LocationRow>(
      `insert into delivery_locations (id, name, region, zone, lat, lng) values ($1, $2, $3, $4, $5, $6) returning ${COLS}`,
      [loc.id, loc.name, loc.region, loc.zone, loc.lat, loc.lng],
    );
    return rows[0]!;
  },

  /** Every live area, oldest first (ids are ULIDs, so id order is creation order). */
  async listAll(db: Queryable): Promise<LocationRow[]> {
    return db.query<LocationRow>(`select ${COLS} from delivery_locations order by id`);
  },

  async get(db: Queryable, id: string): Promise<LocationRow | undefined> {
    return (
      await db.query<LocationRow>(`select ${COLS} from delivery_locations where id = $1`, [id])
    )[0];
  },
};
