/**
 * The fleet's couriers at work (courier-fleet-process.ts): each courier holds the courier app's live
 * stream (GET /courier/events) open, takes the offers it is sent, and works each job it took
 * through the app's actions, a step every `stepMs`: accept, arrived_at_pickup, picked_up, arrived,
 * delivered with the recipient's code. The code is what the recipient reads out at the door: the
 * bench reads the assignment's text from the development SMS outbox (no SMS_PROVIDER), as the
 * recipient's phone would receive it. Jobs the courier did not take itself (an operator's, seeded)
 * are left as they are.
 */
import { Agent, request } from 'node:http';
import pg from 'pg';

export interface WorkOrder {
  databaseUrl: string;
  schema: string;
  /** Between a courier's steps on a job (and from an offer to its acceptance). */
  stepMs: number;
}

export interface WorkReport {
  offers: number;
  accepted: number;
  delivered: number;
  /** Steps refused or failed (an offer taken by another courier first is not counted here). */
  failed: number;
  /** Offers that were gone (expired or taken) by the time the courier answered. */
  missed: number;
  firstFailures: string[];
}

export interface Courier {
  cookie: string;
  csrf: string;
}

type Post = (courier: Courier, kind: string, payload: Record<string, unknown>) => Promise<Answer>;
interface Answer {
  status: number;
  /** The action's result; an applied job action says where the job is now (`stage`). */
  body: { result?: string; reason?: string; stage?: string | null };
}

interface JobView {
  kind: string;
  order_id?: string;
  stage?: string | null;
}

/** What each stage leads to: the courier's next action on its job. */
const NEXT: Record<string, string> = {
  accepted: 'arrived_at_pickup',
  at_pickup: 'picked_up',
  picked_up: 'arrived',
  at_dropoff: 'delivered',
};
const CODE_TRIES = 10;
const RECONNECT_MS = 1000;

export class FleetWork {
  readonly report: WorkReport = {
    offers: 0,
    accepted: 0,
    delivered: 0,
    failed: 0,
    missed: 0,
    firstFailures: [],
  };
  private readonly streams = new Agent({ keepAlive: true });
  private readonly pool: pg.Pool;
  /** Couriers with a step under way (one at a time, as a person taps). */
  private readonly acting = new Set<Courier>();
  /** Each courier's last step applied (its order and kind). */
  private readonly taken = new Map<Courier, string>();
  /** The id of the last job event each courier's stream sent, sent back when it reconnects. */
  private readonly lastId = new Map<Courier, string>();
  /** What each courier's screen shows now (the stream's last job event). */
  private readonly shown = new Map<Courier, JobView>();
  /** Couriers working a job they accepted here (not one an operator gave them before the run). */
  private readonly working = new Set<Courier>();
  private stopped = false;
  private readonly open = new Set<{ destroy(): void }>();

  constructor(
    private readonly port: number,
    private readonly order: WorkOrder,
    private readonly post: Post,
  ) {
    this.pool = new pg.Pool({
      connectionString: order.databaseUrl,
      max: 2,
      options: `-c search_path=${order.schema}`,
    });
  }

  start(couriers: readonly Courier[]): void {
    for (const courier of couriers) this.listen(courier);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const req of this.open) req.destroy();
    this.streams.destroy();
    await this.pool.end();
  }

  private fail(why: string): void {
    this.report.failed++;
    if (this.report.firstFailures.length < 5) this.report.firstFailures.push(why);
  }

  /** The courier's live stream; a job event offering an order starts the courier's work on it. */
  private listen(courier: Courier): void {
    if (this.stopped) return;
    const req = request(
      {
        host: '127.0.0.1',
        port: this.port,
        path: '/courier/events',
        agent: this.streams,
        // As a browser resumes: the server skips the job event the phone already has.
        headers: {
          cookie: courier.cookie,
          accept: 'text/event-stream',
          ...(this.lastId.has(courier) ? { 'last-event-id': this.lastId.get(courier)! } : {}),
        },
      },
      (res) => {
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
            this.heard(courier, buffered.slice(0, end));
            buffered = buffered.slice(end + 2);
          }
        });
        res.on('end', () => this.again(courier, req));
      },
    );
    this.open.add(req);
    req.on('error', () => this.again(courier, req));
    req.end();
  }

  private again(courier: Courier, req: { destroy(): void }): void {
    this.open.delete(req);
    if (!this.stopped) setTimeout(() => this.listen(courier), RECONNECT_MS).unref();
  }

  /**
   * The courier's screen changed: an offer is taken; a job the courier took goes one step on (a
   * batch's drops one after another, each shown in turn); no job ends the courier's work.
   */
  private heard(courier: Courier, message: string): void {
    const lines = message.split('\n');
    const data = lines.find((l) => l.startsWith('data: '));
    if (!lines.includes('event: job') || !data) return;
    const id = lines.find((l) => l.startsWith('id: '));
    if (id) this.lastId.set(courier, id.slice(4));
    const job = JSON.parse(data.slice(6)) as JobView;
    if (job.kind === 'none') this.working.delete(courier);
    this.shown.set(courier, job);
    if (job.kind === 'offer') this.report.offers++;
    this.consider(courier);
  }

  /** The step the courier's screen calls for now, unless one is under way (it looks again after). */
  private consider(courier: Courier): void {
    const job = this.shown.get(courier);
    if (!job?.order_id || this.acting.has(courier)) return;
    const step =
      job.kind === 'offer'
        ? 'accept'
        : job.kind === 'job' && this.working.has(courier)
          ? NEXT[job.stage ?? '']
          : undefined;
    // A screen that has not caught up with the step just taken shows it again: taken once.
    if (step && this.taken.get(courier) !== `${job.order_id} ${step}`)
      void this.act(courier, step, job.order_id);
  }

  /** One step, taken stepMs after the screen showed it (the courier reads, rides, hands over). */
  private async act(courier: Courier, kind: string, orderId: string): Promise<void> {
    this.acting.add(courier);
    const from = this.shown.get(courier);
    try {
      await new Promise((r) => setTimeout(r, this.order.stepMs));
      if (this.stopped) return;
      const payload: Record<string, unknown> = { order_id: orderId };
      if (kind === 'delivered') {
        const code = await this.codeOf(orderId);
        if (!code) return this.fail(`no delivery code was texted for ${orderId}`);
        payload.code = code;
      }
      const answer = await this.post(courier, kind, payload).catch(
        (err: Error): Answer => ({ status: 0, body: { reason: err.message } }),
      );
      const applied = answer.status === 200 && answer.body.result === 'applied';
      if (applied) this.taken.set(courier, `${orderId} ${kind}`);
      if (kind === 'accept') {
        if (!applied) this.report.missed++;
        else {
          this.report.accepted++;
          this.working.add(courier);
        }
      } else if (!applied)
        this.fail(`${kind}: ${answer.status} ${answer.body.reason ?? ''}`.trim());
      else if (kind === 'delivered') this.report.delivered++;
    } finally {
      this.acting.delete(courier);
      // The screen may have moved on while the step was under way.
      if (this.shown.get(courier) !== from) this.consider(courier);
    }
  }

  /** The code in the assignment's text to the recipient (sent right after the assignment commits). */
  private async codeOf(orderId: string): Promise<string | undefined> {
    for (let i = 0; i < CODE_TRIES; i++) {
      const { rows } = await this.pool.query<{ body: string }>(
        `select d.body from recipient_messages m join dev_sms_outbox d on d.id = m.provider_message_id
          where m.order_id = $1 and m.kind = 'assigned'`,
        [orderId],
      );
      // The text ends with the tracking link; the code is the last four digits before it.
      const code = rows[0]?.body.split('http')[0]?.match(/(\d{4})\D*$/)?.[1];
      if (code) return code;
      await new Promise((r) => setTimeout(r, 500));
    }
    return undefined;
  }
}
