import { haversineKm } from '../../src/shared/ghana/index.ts';
import type { SimClock } from './clock.ts';
import type { SimCourier } from './courier.ts';
import type { SimServer } from './server.ts';

/** An order waiting with nobody offered it this long gets an operator's attention. */
const STARVED_MS = 3 * 60_000;
const LOOK_EVERY_MS = 60_000;

interface BoardLine {
  order_id: string;
  column: 'unassigned' | 'offered' | 'in_progress' | 'late';
  pickup: { lat: number; lng: number } | null;
  offered_to: string | null;
  courier_id: string | null;
}

/**
 * The dispatcher at the console: once a minute reads the dispatch board and gives each order that
 * has waited without an offer for three minutes (everyone near was offered it and missed it) to
 * the nearest courier holding nothing, by hand (POST /admin/v1/dispatch/orders/:id/assign).
 */
export class SimDispatcher {
  assigned = 0;
  private readonly waitingSince = new Map<string, number>();

  constructor(
    private readonly server: SimServer,
    private readonly clock: SimClock,
    private readonly couriers: readonly SimCourier[],
    private readonly problems: string[],
  ) {}

  async watch(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      await this.clock.sleep(LOOK_EVERY_MS);
      await this.look().catch((err: Error) => this.problems.push(`dispatcher: ${err.message}`));
    }
  }

  private async look(): Promise<void> {
    const board = (await this.server.admin('GET', '/dispatch/board')).data as BoardLine[];
    const now = this.clock.now();
    const busy = new Set(board.flatMap((l) => [l.courier_id, l.offered_to].filter(Boolean)));
    const waiting = board.filter(
      (l) => (l.column === 'unassigned' || l.column === 'late') && !l.offered_to && !l.courier_id,
    );
    for (const id of this.waitingSince.keys())
      if (!waiting.some((l) => l.order_id === id)) this.waitingSince.delete(id);
    for (const line of waiting) {
      const since = this.waitingSince.get(line.order_id) ?? now;
      this.waitingSince.set(line.order_id, since);
      if (now - since < STARVED_MS) continue;
      const free = this.couriers.filter((c) => !c.holding && !busy.has(c.id));
      const pickup = line.pickup;
      const nearest = free.sort((a, b) =>
        pickup ? haversineKm(a.position, pickup) - haversineKm(b.position, pickup) : 0,
      )[0];
      if (!nearest) return;
      busy.add(nearest.id);
      await this.server.admin('POST', `/dispatch/orders/${line.order_id}/assign`, {
        courier_id: nearest.id,
      });
      this.waitingSince.delete(line.order_id);
      this.assigned++;
    }
  }
}
