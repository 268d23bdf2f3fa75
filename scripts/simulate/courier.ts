import type { LatLng } from '../../src/shared/ghana/index.ts';
import type { Random, SimClock } from './clock.ts';
import type { OrderBook, SimOrder } from './orders.ts';
import type { SimOptions } from './options.ts';
import type { SimServer } from './server.ts';
import type { SimCourierAccount } from './setup.ts';
import { CourierPhone, type LiveJob } from './web.ts';
import { along, around, CENTRE, rideMs } from './world.ts';

/** What every courier shares: the server, the clock, the day's orders and where problems are noted. */
export interface Street {
  server: SimServer;
  clock: SimClock;
  options: SimOptions;
  book: OrderBook;
  problems: string[];
  /** Called when a courier ends a job (cash handovers). */
  afterJob: (c: SimCourier) => Promise<void>;
}

const MINUTE = 60_000;

/** The job was given to another courier (an operator's assignment raced this courier's accept): the app shows it gone. */
class JobTaken extends Error {}
/** Position reports: every minute on the move, every five while waiting (dispatch drops those older than 15). */
const MOVING_REPORT_MS = MINUTE;
const IDLE_REPORT_MS = 5 * MINUTE;

/** The newest text to a phone (either way it is written) that matches `pattern`. */
export async function textTo(
  s: SimServer,
  phone: string,
  pattern: RegExp,
): Promise<string | undefined> {
  const intl = phone.startsWith('0') ? `+233${phone.slice(1)}` : phone;
  const rows = await s.app.platform.db.query<{ body: string }>(
    'select body from dev_sms_outbox where to_number = $1 or to_number = $2 order by id desc limit 1',
    [phone, intl],
  );
  return rows[0] && pattern.exec(rows[0].body)?.[1];
}

/** A headless courier: the courier app's sign-in, duty, positions, event stream and job actions. */
export class SimCourier {
  position: LatLng;
  holding: string | undefined;
  busyMs = 0;
  delivered = 0;
  failed = 0;
  /** Jobs an operator gave to someone else while this courier held them. */
  takenAway = 0;
  /** When each offer reached the phone (simulated), by order id. */
  readonly offersSeen = new Map<string, number>();
  private readonly phone: CourierPhone;
  private readonly seen = new Set<string>();
  private readonly stop = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(
    readonly account: SimCourierAccount,
    private readonly street: Street,
    private readonly r: Random,
  ) {
    this.phone = new CourierPhone(street.server.url);
    this.position = around(r, CENTRE, 0, 4);
  }

  get id(): string {
    return this.account.id;
  }

  /** Signs in with the code texted to the courier (read from the development outbox). */
  async signIn(): Promise<void> {
    await this.phone.requestCode(this.account.phone);
    await this.street.server.app.platform.courierSignIn.settled();
    const code = await textTo(this.street.server, this.account.phone, /\b(\d{6})\b/);
    if (!code) throw new Error(`no sign-in code texted to ${this.account.phone}`);
    await this.phone.enterCode(this.account.phone, code);
  }

  /** Goes on duty and works until `end()`: the event stream brings offers and jobs. */
  async start(): Promise<void> {
    await this.act('duty', undefined, { on_duty: true });
    await this.report();
    this.spawn(this.phone.follow((job) => this.onJob(job), this.stop.signal));
    this.spawn(this.idleReports());
  }

  async end(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.running]);
    await this.act('duty', undefined, { on_duty: false }).catch(() => undefined);
  }

  private spawn(work: Promise<void>): void {
    const tracked = work.catch((err: Error) => {
      if (err instanceof JobTaken) this.takenAway++;
      else this.note(err.message);
    });
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  private note(problem: string): void {
    if (!this.stop.signal.aborted) this.street.problems.push(`${this.account.name}: ${problem}`);
  }

  private onJob(job: LiveJob): void {
    if (job.kind === 'offer' && !this.offersSeen.has(job.order_id))
      this.offersSeen.set(job.order_id, this.street.clock.now());
    if (job.kind === 'offer' && !this.holding && !this.seen.has(job.order_id)) {
      this.seen.add(job.order_id);
      const o = this.street.options;
      const delay = this.r.lognormal(o.responseMedianS * 1000, o.responseSigma);
      this.spawn(this.respond(job.order_id, delay));
    } else if (job.kind === 'job' && this.holding !== job.order_id && !this.holding) {
      this.spawn(this.work(job.order_id));
    }
  }

  private async respond(orderId: string, delayMs: number): Promise<void> {
    await this.street.clock.sleep(delayMs);
    if (this.holding || this.stop.signal.aborted) return;
    if (this.r.chance(this.street.options.declineRate)) {
      await this.act('decline', orderId);
      return;
    }
    const answer = await this.act('accept', orderId);
    // Too late (expired, taken): the courier waits for the next one.
    if (answer.result === 'applied' && !this.holding) await this.work(orderId);
  }

  private async idleReports(): Promise<void> {
    while (!this.stop.signal.aborted) {
      await this.street.clock.sleep(IDLE_REPORT_MS, this.stop.signal);
      if (!this.holding && !this.stop.signal.aborted) await this.report();
    }
  }

  private async report(): Promise<void> {
    await this.act('position', undefined, { ...this.position });
  }

  async act(kind: string, orderId: string | undefined, payload: Record<string, unknown> = {}) {
    return this.phone.act(kind, this.street.clock.now(), {
      ...(orderId ? { order_id: orderId } : {}),
      ...payload,
    });
  }

  /** Rides a straight line to `to` at the vehicle's speed, reporting positions on the way. */
  private async ride(to: LatLng): Promise<void> {
    const { clock } = this.street;
    const from = this.position;
    const total = rideMs(from, to, this.account.vehicle);
    const start = clock.now();
    while (clock.now() < start + total) {
      await clock.sleep(Math.min(MOVING_REPORT_MS, start + total - clock.now()));
      this.position = along(from, to, (clock.now() - start) / total);
      await this.report();
    }
    this.position = to;
  }

  private async dwell(minMinutes: number, maxMinutes: number): Promise<void> {
    await this.street.clock.sleep(this.r.between(minMinutes, maxMinutes) * MINUTE);
  }

  /** One job, from the accepted offer (or an operator's assignment) to delivered or returned. */
  private async work(orderId: string): Promise<void> {
    const { clock, book } = this.street;
    // One job at a time: the stream's event and the look after a batch's drop may both name the next.
    if (this.holding) return;
    this.holding = orderId;
    const began = clock.now();
    try {
      const order = await book.get(orderId);
      if (!order) throw new Error(`was given ${orderId}, which no partner placed`);
      order.acceptedAt ??= began;
      await this.ride(order.pickup);
      await this.step('arrived_at_pickup', order);
      await this.dwell(1, 3);
      await this.step('picked_up', order);
      await this.ride(order.dropoff);
      await this.atTheDoor(order);
    } finally {
      this.busyMs += clock.now() - began;
      this.holding = undefined;
      await this.street.afterJob(this);
      await this.nextOfBatch(orderId);
    }
  }

  /**
   * A multi-drop batch's next order, once one is done: the app shows it at once, and its event may
   * have come while this one was still in hand (and been passed over). The simulated courier takes
   * a batch's orders one after the other, each from its own pickup step.
   */
  private async nextOfBatch(done: string): Promise<void> {
    if (this.stop.signal.aborted) return;
    const next = await this.phone.job().catch(() => undefined);
    if (next?.kind === 'job' && next.order_id !== done && !this.holding)
      this.spawn(this.work(next.order_id));
  }

  private async step(kind: string, order: SimOrder, payload: Record<string, unknown> = {}) {
    const answer = await this.act(kind, order.orderId, payload);
    if (answer.result === 'refused' && /Only the courier holding/.test(answer.reason ?? ''))
      throw new JobTaken(order.orderId);
    if (answer.result !== 'applied')
      throw new Error(`${kind} on ${order.orderId}: ${answer.result} ${answer.reason ?? ''}`);
    return answer;
  }

  /** Delivers with the recipient's code, or fails each attempt and takes the goods back. */
  private async atTheDoor(order: SimOrder): Promise<void> {
    for (;;) {
      await this.step('arrived', order);
      await this.dwell(0.5, 2);
      if (!order.fails) {
        const code = await textTo(
          this.street.server,
          order.recipientPhone,
          /Delivery code: (\d{4})/,
        );
        if (!code) throw new Error(`no delivery code texted for ${order.orderId}`);
        await this.step('delivered', order, { code });
        order.deliveredAt = this.street.clock.now();
        this.delivered++;
        return;
      }
      const answer = await this.step('could_not_deliver', order, { reason: 'recipient_absent' });
      if (answer.stage === 'returning') break;
      // Another attempt is allowed: the courier waits a little and tries the door again.
      await this.dwell(3, 6);
    }
    await this.ride(order.pickup);
    await this.step('returned', order);
    this.failed++;
  }
}
