import type { Db } from '../../platform/db/index.ts';
import { isAppError } from '../../platform/errors.ts';
import type { CouriersService } from '../couriers/index.ts';
import type { Stage } from './domain/actions.ts';
import type { Offers } from './offers.ts';
import { dispatchRepository as repo } from './repository.ts';
import type { ActionResult, DispatchService } from './service.ts';

const BATCH = 100;

/** Proves a delivery at the door for the sandbox courier (the app wires proof of delivery's real code check). */
export type SandboxProof = (orderId: string, courierId: string) => Promise<void>;

/**
 * The sandbox courier: a simulated courier (a couriers record marked simulated, one per deployment)
 * that takes staging orders (and, on a local playground, production's: Offers.sandboxEnvironments)
 * through dispatch as a real courier would. A staging job that has waited
 * a step is offered to it through Offers and accepted; then each time its job has rested a step it
 * takes the next action (at pickup and picked up; at the drop-off; delivered with the recipient's
 * code), one order status per step: accepted, pickedUp, in_transit, delivered, each with its timeline
 * entry and webhook. Several instances may run it: the job has one holder, and each action moves the
 * job only from the stage before it (under the job's lock), so a move another instance made first is
 * refused here and skipped. It has no phone, so no action records: the job's stage is its record.
 */
export class SandboxCourier {
  private proof: SandboxProof | undefined;
  private id: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly couriers: CouriersService,
    private readonly offers: Offers,
    private readonly service: DispatchService,
    private readonly stepMs: number,
    private readonly clock: () => number,
  ) {}

  /** How the courier proves a delivery before its "delivered" action (without one, that action is refused). */
  proveWith(proof: SandboxProof): void {
    this.proof = proof;
  }

  /** The simulated courier's id (its record is created on first use, then remembered). */
  async courierId(): Promise<string> {
    this.id ??= (await this.couriers.simulated()).id;
    return this.id;
  }

  /** Whether `courierId` is this simulated courier (read from its record: its record is not created for the question). */
  async is(courierId: string): Promise<boolean> {
    return this.id !== undefined
      ? this.id === courierId
      : (await this.couriers.get(courierId)).simulated;
  }

  /** How long a job rests between two of its moves. */
  get step(): number {
    return this.stepMs;
  }

  /**
   * Moves every job of its environments that has rested a full step on by one status; returns how
   * many moved. Jobs on a test clock move only in that clock's advance (`clockId`), at its time.
   */
  async tick(clockId: string | null = null): Promise<number> {
    const courier = await this.courierId();
    const before = new Date(this.clock() - this.stepMs);
    // Read before accepting, so that a job accepted now waits a full step for its next move.
    const held = await repo.heldSince(this.db, courier, before, BATCH, clockId);
    let moved = 0;
    for (const job of held)
      moved += await this.attempt(() => this.next(courier, job.order_id, job.stage));
    const environments = this.offers.sandboxEnvironments;
    for (const job of await repo.waitingIn(this.db, environments, before, BATCH, clockId))
      await this.offers.offerTo(job.order_id, courier);
    // Every open offer to it (those of a tick cut short too) is accepted at once.
    for (const offer of await repo.openOffersTo(this.db, courier, BATCH, clockId)) {
      moved += await this.attempt(() => this.service.accept(courier, offer.order_id));
    }
    return moved;
  }

  /** The action(s) after `stage` that make the order's next move. */
  private async next(
    courier: string,
    orderId: string,
    stage: Stage,
  ): Promise<ActionResult | undefined> {
    switch (stage) {
      case 'accepted':
        await this.service.arrivedAtPickup(courier, orderId);
        return this.service.pickedUp(courier, orderId, { leaving: false });
      case 'at_pickup':
        return this.service.pickedUp(courier, orderId, { leaving: false });
      case 'picked_up':
        return this.service.arrived(courier, orderId);
      case 'at_dropoff':
        await this.proof?.(orderId, courier);
        return this.service.delivered(courier, orderId);
      default:
        return undefined;
    }
  }

  /** 1 when the action moved the order now; 0 for a refusal (moved by another instance, or cancelled, meanwhile). */
  private async attempt(act: () => Promise<ActionResult | undefined>): Promise<number> {
    try {
      return (await act()) ? 1 : 0;
    } catch (err) {
      if (!isAppError(err)) throw err;
      return 0;
    }
  }
}
