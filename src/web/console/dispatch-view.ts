import type { Courier } from '../../modules/couriers/index.ts';
import type { BoardColumn, BoardEntry, DispatchService } from '../../modules/dispatch/index.ts';
import { shownDigest } from '../../platform/http/event-stream.ts';
import { utc } from './kit.ts';
import type { CouriersService } from '../../modules/couriers/index.ts';

type Point = { lat: number; lng: number } | null;
const point = (lat: number | null, lng: number | null): Point =>
  lat === null || lng === null ? null : { lat, lng };

/** A courier on the dispatch map: where they last reported, when, and whether they hold a job. */
export interface MapCourier {
  id: string;
  name: string;
  vehicle: string;
  position: Point;
  position_at: string | null;
  busy: boolean;
}

/** An open order on the dispatch map: its pickup point, its column and who has it or its offer. */
export interface MapOrder {
  id: string;
  column: BoardEntry['column'];
  position: Point;
  courier: string | null;
  offer_expires_at: string | null;
}

/** What the dispatch page's live script is sent: the map's points and the late count (the alert). */
export interface DispatchSnapshot {
  late: number;
  couriers: MapCourier[];
  orders: MapOrder[];
}

/** The board's rows and the on-duty couriers, with every courier holding an order named (off duty ones too). */
export interface DispatchRead {
  entries: BoardEntry[];
  onDuty: Courier[];
  names: Map<string, string>;
}

export async function readDispatch(
  dispatch: DispatchService,
  couriers: CouriersService,
): Promise<DispatchRead> {
  const [entries, onDuty] = await Promise.all([dispatch.board(), dispatch.assignable()]);
  const names = new Map(onDuty.map((c) => [c.id, `${c.name} (${c.vehicle})`]));
  for (const e of entries) {
    const holder = e.courier_id ?? e.offer_courier_id;
    if (!holder || names.has(holder)) continue;
    // A courier who went off duty with a job keeps it: named all the same (one read each, rare).
    const courier = await couriers.get(holder).catch(() => undefined);
    if (courier) names.set(holder, `${courier.name} (${courier.vehicle})`);
  }
  return { entries, onDuty, names };
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The snapshot as a stream message: its id is a digest of its content, so a resumed stream skips what it has. */
export function dispatchSnapshot({ entries, onDuty, names }: DispatchRead): {
  id: string;
  data: DispatchSnapshot;
} {
  const busy = new Set(entries.map((e) => e.courier_id).filter(Boolean));
  const data: DispatchSnapshot = {
    late: entries.filter((e) => e.column === 'late').length,
    couriers: onDuty.map((c) => ({
      id: c.id,
      name: c.name,
      vehicle: c.vehicle,
      position: point(c.last_lat, c.last_lng),
      position_at: iso(c.last_position_at),
      busy: busy.has(c.id),
    })),
    orders: entries.map((e) => {
      const holder = e.courier_id ?? e.offer_courier_id;
      return {
        id: e.order_id,
        column: e.column,
        position: point(e.pickup_lat, e.pickup_lng),
        courier: holder ? (names.get(holder) ?? holder) : null,
        offer_expires_at: iso(e.offer_expires_at),
      };
    }),
  };
  return { id: shownDigest(data), data };
}

const COLUMNS: ReadonlyArray<{ column: BoardColumn; title: string; empty: string }> = [
  { column: 'late', title: 'Late: nobody accepted in time', empty: 'No order is late.' },
  { column: 'unassigned', title: 'Waiting for a courier', empty: 'No order is waiting.' },
  { column: 'offered', title: 'Offered', empty: 'No offer is open.' },
  { column: 'in_progress', title: 'In progress', empty: 'No courier is on a job.' },
];

/**
 * A column's lines with each multi-drop batch's jobs together, in route order, where its first job
 * stood; each job of a batch knows its drop, the batch's size in the column and whether it heads it
 * (the page shows a batch's courier once, as one offer or one holder, beside all its jobs).
 */
function withBatches(entries: readonly BoardEntry[]) {
  const groups = new Map<string, BoardEntry[]>();
  for (const e of entries) {
    const key = e.batch_id ?? e.order_id;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()].flatMap((group) =>
    group
      .sort((a, b) => (a.stop ?? 0) - (b.stop ?? 0))
      .map((e, i) => ({
        entry: e,
        batch: e.batch_id ? { size: group.length, first: i === 0, drop: i + 1 } : undefined,
      })),
  );
}

/** The page's lists: couriers on duty with their position's age, and the board's columns with their assign choices. */
export function boardView({ entries, onDuty, names }: DispatchRead, canAssign: boolean) {
  const busy = new Set(entries.map((e) => e.courier_id));
  const columns = COLUMNS.map((c) => ({
    ...c,
    entries: withBatches(entries.filter((e) => e.column === c.column)).map(
      ({ entry: e, batch }) => {
        const holder = e.courier_id ?? e.offer_courier_id;
        return {
          ...e,
          batch,
          since: utc(e.late_at ?? e.created_at).slice(11),
          // A window: when the job is offered from (if later than its placement) and its deadline.
          offeredFrom: e.due_at > e.created_at ? utc(e.due_at) : undefined,
          deadline: e.dropoff_deadline ? utc(e.dropoff_deadline) : undefined,
          missesWindow: e.window_missed_at !== null,
          expires: e.offer_expires_at ? utc(e.offer_expires_at).slice(11) : undefined,
          expiresAt: iso(e.offer_expires_at) ?? undefined,
          holder,
          holderName: holder ? (names.get(holder) ?? holder) : undefined,
          // Anyone on duty but the courier who holds the job.
          choices: canAssign
            ? onDuty
                .filter((k) => k.id !== e.courier_id)
                .map((k) => ({ id: k.id, label: names.get(k.id)! }))
            : [],
        };
      },
    ),
  }));
  const couriers = onDuty.map((c) => ({
    id: c.id,
    name: c.name,
    vehicle: c.vehicle,
    busy: busy.has(c.id),
    seen: c.last_position_at ? utc(c.last_position_at).slice(11) : undefined,
    seenAt: iso(c.last_position_at) ?? undefined,
  }));
  return { columns, couriers, late: entries.filter((e) => e.column === 'late').length };
}
