import type { Db } from '../../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import {
  GHANA_AREAS,
  GHANA_REGIONS,
  filterAreas,
  isInGhana,
  isValidLatLng,
  resolveArea,
  type Area,
  type LatLng,
  type ResolvedArea,
} from '../../../shared/ghana/index.ts';
import { locationsRepository as repo, type LocationRow } from './repository.ts';

/** The Location resource of the contract; `coordinates` only when asked for and known. */
export interface Location {
  id: string;
  name: string;
  region: string;
  zone: string;
  coordinates?: LatLng;
}

export interface LocationFilters {
  region?: string;
  zone?: string;
  includeCoordinates?: boolean;
}

export interface LocationList {
  locations: Location[];
  total: number;
  filters: { region: string | null; zone: string | null };
}

export interface NewLocation {
  name: string;
  region: string;
  zone: string;
  coordinates?: LatLng;
}

/** A curated or live area; live ones may have no coordinates. */
interface Entry {
  id: string;
  name: string;
  region: string;
  zone: string;
  coordinates: LatLng | null;
}

interface Snapshot {
  /** Curated first, then live in creation order (resolveArea keeps the earlier one on ties). */
  entries: Entry[];
  /** The entries that can resolve a point. */
  areas: Area[];
}

/** How long an instance serves its merged list before reading the live rows again. */
export const DEFAULT_LOCATIONS_REFRESH_MS = 3000;

const CURATED: readonly Entry[] = GHANA_AREAS;
const CURATED_IDS = new Set(CURATED.map((e) => e.id));

function entryOf(row: LocationRow): Entry {
  const coordinates = row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null;
  return { id: row.id, name: row.name, region: row.region, zone: row.zone, coordinates };
}

function view(e: Entry, withCoordinates: boolean): Location {
  const loc: Location = { id: e.id, name: e.name, region: e.region, zone: e.zone };
  if (withCoordinates && e.coordinates)
    loc.coordinates = { lat: e.coordinates.lat, lng: e.coordinates.lng };
  return loc;
}

/** Canonical region name for a case-insensitive one, or null when it is not one of the 16. */
export function canonicalRegion(name: string): string | null {
  const wanted = name.trim().toLowerCase();
  return GHANA_REGIONS.find((r) => r.name.toLowerCase() === wanted)?.name ?? null;
}

/**
 * Curated areas merged with the ones operators add. The merged list is cached per instance and
 * re-read at most every `refreshMs` (so other instances' additions show within seconds), and
 * right after a local `create`.
 */
export class LocationsService {
  private snapshotCache: Snapshot | null = null;
  private loadedAt = -Infinity;
  private loading: Promise<Snapshot> | null = null;
  /** Bumped by create: a reload that began before it must not count as fresh. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly radiusKm: number,
    private readonly clock: () => number = Date.now,
    private readonly refreshMs: number = DEFAULT_LOCATIONS_REFRESH_MS,
  ) {}

  async list(filters: LocationFilters = {}): Promise<LocationList> {
    const { entries } = await this.snapshot();
    // filterAreas reads only region and zone, which entries share with Area.
    const matched = filterAreas(entries as unknown as Area[], filters) as unknown as Entry[];
    const locations = matched.map((e) => view(e, filters.includeCoordinates === true));
    return {
      locations,
      total: locations.length,
      filters: { region: filters.region ?? null, zone: filters.zone ?? null },
    };
  }

  /** Area (or at least region) of a point, live areas included; null outside Ghana. */
  async resolve(p: LatLng): Promise<ResolvedArea | null> {
    const { areas } = await this.snapshot();
    return resolveArea(p, areas, GHANA_REGIONS, this.radiusKm);
  }

  /** A location with its coordinates when known, or null. */
  async findById(id: string): Promise<Location | null> {
    const found = (await this.snapshot()).entries.find((e) => e.id === id);
    if (found) return view(found, true);
    if (CURATED_IDS.has(id) || !id.startsWith('loc_')) return null;
    // Possibly added on another instance since our last refresh.
    const row = await repo.get(this.db, id);
    return row ? view(entryOf(row), true) : null;
  }

  async create(input: NewLocation): Promise<Location> {
    const details: ErrorDetail[] = [];
    const name = input.name.trim();
    const zone = input.zone.trim();
    const region = canonicalRegion(input.region);
    if (!name) details.push({ field: 'name', issue: 'must not be blank' });
    if (!zone) details.push({ field: 'zone', issue: 'must not be blank' });
    if (!region)
      details.push({
        field: 'region',
        issue: `must be one of ${GHANA_REGIONS.map((r) => r.name).join(', ')}`,
      });
    const c = input.coordinates;
    if (c !== undefined && !(isValidLatLng(c) && isInGhana(c))) {
      details.push({ field: 'coordinates', issue: 'must be a point inside Ghana' });
    }
    if (details.length > 0 || !region) {
      throw errors.validation(`${details[0]!.field} ${details[0]!.issue}.`, details);
    }
    const row = await repo.insert(this.db, {
      id: newId('loc'),
      name,
      region,
      zone,
      lat: c?.lat ?? null,
      lng: c?.lng ?? null,
    });
    // The next read reloads, without joining a reload that began before the insert.
    this.generation++;
    this.loadedAt = -Infinity;
    this.loading = null;
    return view(entryOf(row), true);
  }

  private async snapshot(): Promise<Snapshot> {
    if (this.snapshotCache && this.clock() - this.loadedAt < this.refreshMs)
      return this.snapshotCache;
    if (!this.loading) {
      const loading: Promise<Snapshot> = this.reload().finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    try {
      return await this.loading;
    } catch (err) {
      // A database hiccup should not hide the areas we already know; retry on the next call.
      if (this.snapshotCache) return this.snapshotCache;
      throw err;
    }
  }

  private async reload(): Promise<Snapshot> {
    const generation = this.generation;
    const startedAt = this.clock();
    const live = (await repo.listAll(this.db)).map(entryOf);
    const entries = [...CURATED, ...live];
    const areas: Area[] = [];
    for (const e of entries) if (e.coordinates) areas.push({ ...e, coordinates: e.coordinates });
    const snap: Snapshot = { entries, areas };
    // A reload overtaken by a create may lack its row: keep it for its own callers only.
    if (generation === this.generation) {
      this.snapshotCache = snap;
      this.loadedAt = startedAt;
    } else {
      this.snapshotCache ??= snap;
    }
    return snap;
  }
}
