import type { Logger } from '../../platform/logger.ts';
import type { Db } from '../../platform/db/index.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import { batching } from '../../platform/concurrency.ts';
import { WorkerLoop } from '../../platform/worker-loop.ts';
import { OUTBOX_CHANNEL } from './outbox.ts';
import {
  webhooksRepository as repo,
  type AppRoom,
  type ClaimedDelivery,
  type Settlement,
} from './repository.ts';
import { sendWebhook, signatureHeader, type SendResult } from './sender.ts';

export interface DispatcherSettings {
  /** Delays before each retry; after the last one fails the delivery is dead-lettered. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  concurrency: number;
  perEndpointConcurrency: number;
  pollMs: number;
  /** Delivered and unaddressed events older than this many days are deleted with their attempts (default 30). */
  retentionDays?: number;
}

type Outcome = {
  status: 'delivered' | 'dead' | 'pending';
  nextAttemptAt?: Date;
  /** The wait before the retry without jitter: a test clock's event waits it in the clock's time. */
  retryDelayMs?: number;
  error: string | null;
  disable?: boolean;
};

/** Outcomes recorded in one statement at most; more wait for the next. */
const SETTLE_BATCH = 100;
/**
 * A claimed event that waited for its endpoint's turn is sent on its first lease while this much
 * of it remains (room for the send and clock differences between instances); otherwise the lease is
 * renewed first.
 */
const LEASE_SPARE_MS = 15_000;
const MIN_ROUND_GAP_MS = 20;
/** How often the retention job runs, and how many events one of its statements deletes. */
const RETENTION_EVERY_MS = 10 * 60_000;
const RETENTION_BATCH = 1000;

function withJitter(ms: number): number {
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}

/**
 * Sends outbox events to partners' endpoints, at least once, with retries on the schedule and a
 * dead letter after the last one. Events are leased, so several dispatchers (instances) share the
 * work without sending one attempt twice, and a dispatcher that dies leaves nothing stuck.
 */
/** Sends in flight to one endpoint, and the claimed events waiting for a turn. */
interface Gate {
  active: number;
  waiting: Array<() => void>;
}

export class WebhookDispatcher {
  private readonly gates = new Map<string, Gate>();
  /** The endpoint (origin) each app's events were last sent to, to skip apps whose endpoint is saturated. */
  private readonly appOrigins = new Map<string, string>();
  private inflight = 0;
  /**
   * Woken by every commit that appends events and by a place opening in a full endpoint queue; the
   * poll remains for retries coming due.
   */
  private readonly worker: WorkerLoop;
  /** Deletes delivered events past their retention, with their attempts (dead letters stay until resolved). */
  private readonly retention: WorkerLoop;
  /** Outcomes finishing together are recorded in one statement (see `batching`). */
  private readonly settle = batching<Settlement>(async (outcomes) => {
    await repo.settle(this.db, outcomes);
    return [];
  }, SETTLE_BATCH);
  /** Events a claim took beyond their endpoint's queue go back together, in one statement. */
  private readonly handBack = batching<string>(async (ids) => {
    await repo.release(this.db, ids, new Date(this.clock()));
    return [];
  }, SETTLE_BATCH);

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly settings: DispatcherSettings,
    private readonly destinations: Destinations,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {
    this.worker = new WorkerLoop(db, log, {
      name: 'webhook-dispatcher',
      channel: OUTBOX_CHANNEL,
      pollMs: settings.pollMs,
      // Commits arrive faster than rounds are worth running: a round gathers what came meanwhile,
      // so the dispatcher's queries do not grow with the create rate (on the embedded database they
      // share one session with the requests).
      minGapMs: MIN_ROUND_GAP_MS,
      round: async () => (await this.dispatchDue(false)) > 0,
    });
    this.retention = WorkerLoop.every(
      'webhook-retention',
      RETENTION_EVERY_MS,
      () => this.prune(),
      log,
    );
  }

  start(): void {
    this.worker.start();
    this.retention.start();
  }

  /** Stops claiming, then waits for the sends in flight to be recorded. */
  async stop(): Promise<void> {
    await Promise.all([this.worker.stop(), this.retention.stop()]);
    while (this.inflight > 0) await new Promise((r) => setTimeout(r, 20));
  }

  /** Deletes delivered and unaddressed events older than the retention, in bounded batches; answers how many. */
  async prune(): Promise<number> {
    const before = new Date(this.clock() - (this.settings.retentionDays ?? 30) * 86_400_000);
    let total = 0;
    for (let n = RETENTION_BATCH; n === RETENTION_BATCH; total += n)
      n = await repo.prune(this.db, before, RETENTION_BATCH);
    if (total)
      this.log.info({ deleted: total }, 'delivered webhook events past their retention deleted');
    return total;
  }

  /** Claims what is due and sends it; with `wait`, returns once those sends are recorded (tests). */
  async dispatchDue(wait = true): Promise<number> {
    const free = this.settings.concurrency - this.inflight;
    if (free <= 0) return 0;
    const now = new Date(this.clock());
    const lease = new Date(now.getTime() + this.leaseMs());
    const { events, unaddressed } = await repo.claim(this.db, now, lease, free, this.rooms());
    const sends = events.map((e) => this.deliver(e, lease));
    if (wait) await Promise.all(sends);
    return events.length + unaddressed;
  }

  /**
   * Of each app whose endpoint is being sent to, as many events as its free turns and queue places
   * take, and none while its queue is at least half full: a claim beyond that was handed back, a
   * second statement each time.
   */
  private rooms(): AppRoom[] {
    const rooms: AppRoom[] = [];
    const places = this.settings.perEndpointConcurrency + this.queueLimit();
    for (const [appId, origin] of this.appOrigins) {
      const gate = this.gates.get(origin);
      if (!gate) continue;
      const room =
        gate.waiting.length >= this.refillBelow() ? 0 : places - gate.active - gate.waiting.length;
      rooms.push({ appId, room: Math.max(0, room) });
    }
    return rooms;
  }

  /** As many waiting as sending: one slow endpoint holds at most twice its turns of the dispatcher's places. */
  private queueLimit(): number {
    return this.settings.perEndpointConcurrency;
  }

  /**
   * An endpoint's queue is claimed for again once it is down to half: claiming each time a place
   * opened took a few events per claim statement.
   */
  private refillBelow(): number {
    return Math.ceil(this.queueLimit() / 2);
  }

  /** The lease outlives the longest send, so no other dispatcher can take the event meanwhile. */
  private leaseMs(): number {
    return this.settings.timeoutMs * 2 + 30_000;
  }

  /**
   * A turn to send to one endpoint: at most `perEndpointConcurrency` at once, and a bounded queue
   * behind them, so a slow endpoint holds a bounded share of the dispatcher and others keep moving.
   * Null when the queue is full.
   */
  private async enter(origin: string): Promise<'now' | 'waited' | null> {
    let gate = this.gates.get(origin);
    if (!gate) this.gates.set(origin, (gate = { active: 0, waiting: [] }));
    if (gate.active < this.settings.perEndpointConcurrency) {
      gate.active++;
      return 'now';
    }
    if (gate.waiting.length >= this.queueLimit()) return null;
    await new Promise<void>((resolve) => gate.waiting.push(resolve));
    return 'waited';
  }

  private leave(origin: string): void {
    const gate = this.gates.get(origin)!;
    const wasSaturated = gate.waiting.length >= this.refillBelow();
    const next = gate.waiting.shift();
    // The turn passes straight to the next waiter; the last one out forgets the endpoint.
    if (next) next();
    else if (--gate.active === 0) {
      this.gates.delete(origin);
      for (const [app, o] of this.appOrigins) if (o === origin) this.appOrigins.delete(app);
    }
    // The queue is down to half: claim what was left for this endpoint now, not at the next poll.
    if (wasSaturated && gate.waiting.length < this.refillBelow()) this.worker.prod();
  }

  private async deliver(event: ClaimedDelivery, lease: Date): Promise<void> {
    this.inflight++;
    try {
      const { url } = event;
      if (event.disabled)
        return await this.finish(event, null, {
          status: 'dead',
          error: 'endpoint disabled after it answered 410 Gone',
        });
      // The rules may have changed since the URL was set; its DNS answers are checked as it connects.
      const problem = this.destinations.urlProblem(url, event.environment);
      if (problem)
        return await this.finish(event, null, {
          status: 'dead',
          error: `destination refused: ${problem}`,
        });

      const origin = new URL(url).origin;
      if (!event.destination_url) this.appOrigins.set(event.app_id, origin);
      const turn = await this.enter(origin);
      if (turn === null) {
        // The endpoint's queue is full (a claim takes more than the room only for an endpoint it
        // did not know, apps sharing one endpoint, or events with URLs of their own): hand the
        // event back; it is claimed again once the queue is down to half.
        await this.handBack(event.id);
        return;
      }
      let result: SendResult;
      try {
        if (turn === 'waited' && !(await this.stillOurs(event, lease))) return;
        result = await this.send(event, url);
      } finally {
        // The endpoint is free once it answered: recording the outcome does not hold its turn.
        this.leave(origin);
      }
      await this.finish(event, result, this.outcome(event, result));
    } catch (err) {
      this.log.warn(
        { err, event: event.id },
        'webhook delivery could not be recorded; its lease will lapse and it will be retried',
      );
    } finally {
      this.inflight--;
    }
  }

  /**
   * After waiting for a turn: an unexpired lease cannot have been claimed by another dispatcher, so
   * only a lease running short is renewed, if it is still exactly ours.
   */
  private async stillOurs(event: ClaimedDelivery, lease: Date): Promise<boolean> {
    if (lease.getTime() - this.clock() > this.settings.timeoutMs + LEASE_SPARE_MS) return true;
    return repo.renewLease(this.db, event.id, lease, new Date(this.clock() + this.leaseMs()));
  }

  private send(event: ClaimedDelivery, url: string): Promise<SendResult> {
    const secrets = [this.box.open(event.webhook_secret_sealed)];
    if (
      event.previous_webhook_secret_sealed &&
      event.previous_webhook_secret_expires_at &&
      event.previous_webhook_secret_expires_at.getTime() > this.clock()
    ) {
      secrets.push(this.box.open(event.previous_webhook_secret_sealed));
    }
    const body = JSON.stringify(event.payload);
    const timestamp = Math.floor(this.clock() / 1000);
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(
        secrets.filter((s): s is string => s !== null),
        event.id,
        timestamp,
        body,
      ),
    };
    return sendWebhook(url, headers, body, {
      timeoutMs: this.settings.timeoutMs,
      gate: this.destinations.gate(event.environment),
      traceparent: event.traceparent,
    });
  }

  private outcome(event: ClaimedDelivery, r: SendResult): Outcome {
    const code = r.statusCode;
    if (code !== null && code >= 200 && code < 300) return { status: 'delivered', error: null };
    if (code === 410)
      return { status: 'dead', error: 'endpoint answered 410 Gone; disabled', disable: true };
    const attempt = event.attempts + 1;
    const error = r.error ?? `HTTP ${code}`;
    const delay = this.settings.retryScheduleMs[attempt - 1];
    if (delay === undefined) return { status: 'dead', error };
    const honoured =
      (code === 429 || code === 503) && r.retryAfterSeconds ? r.retryAfterSeconds * 1000 : 0;
    return {
      status: 'pending',
      error,
      nextAttemptAt: new Date(this.clock() + Math.max(withJitter(delay), honoured)),
      retryDelayMs: Math.max(delay, honoured),
    };
  }

  private finish(
    event: ClaimedDelivery,
    result: SendResult | null,
    outcome: Outcome,
  ): Promise<void> {
    return this.settle({
      id: event.id,
      appId: event.app_id,
      status: outcome.status,
      attempts: result ? event.attempts + 1 : event.attempts,
      nextAttemptAt: outcome.nextAttemptAt,
      retryDelayMs: outcome.retryDelayMs,
      error: outcome.error,
      at: new Date(this.clock()),
      disable: outcome.disable === true,
      ...(result
        ? {
            url: event.url,
            statusCode: result.statusCode,
            latencyMs: result.latencyMs,
            attemptError: result.error,
            excerpt: result.excerpt,
          }
        : {}),
    });
  }
}
