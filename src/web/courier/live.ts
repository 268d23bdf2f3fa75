import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EARNINGS_CHANNEL } from '../../modules/earnings/index.ts';
import { PAYOUTS_CHANNEL } from '../../modules/payouts/index.ts';
import { mapLimited } from '../../platform/concurrency.ts';
import { listenOnce } from '../../platform/db/listen-once.ts';
import { EventStreams, shownDigest, type StreamMessage } from '../../platform/http/event-stream.ts';
import { PAYOUTS_SHOWN, type CourierJobView, type CourierKit } from './kit.ts';
import { json } from './routes.ts';

/** Event streams one courier session may hold open at once (a phone and a spare tab); more answer 429. */
export const STREAMS_PER_SESSION = 3;
/** A comment line this often keeps proxies from closing a quiet stream; the session is checked again then too. */
export const HEARTBEAT_MS = 15_000;
/** Couriers' screens read at once by a refresh: a few, leaving most of the pool to requests. */
const LOADS_AT_ONCE = 4;

/** What the courier app is told of its offer or job: enough to draw an offer without a reload. */
export type LiveJob =
  | { kind: 'none' }
  | {
      kind: 'offer' | 'job';
      order_id: string;
      stage: string | null;
      expires_at: string | null;
      item: string;
      pickup: string;
      dropoff: string;
      fee_pesewas: number | null;
      distance_km: number | null;
      /** A multi-drop batch's drops still to do (null for a single job). */
      stops: number | null;
      /** A multi-drop batch's drops in route order, each with its drop-off and item (null for a single job). */
      drops: Array<{ address: string; customer: string; item: string }> | null;
    };

/** The courier's job as an event: its id is a hash of what the screen shows, so a resume skips what the phone has. */
export function liveJob(job: CourierJobView | undefined): { id: string; data: LiveJob } {
  const data: LiveJob = job
    ? {
        kind: job.kind,
        order_id: job.order_id,
        stage: job.stage ?? null,
        expires_at: job.expires_at ?? null,
        item: job.sheet.item,
        pickup: job.sheet.pickup_address ?? 'No address given',
        dropoff: `${job.sheet.delivery_address}, ${job.sheet.delivery_city}`,
        fee_pesewas: job.fee_pesewas === undefined ? job.sheet.fee_pesewas : job.fee_pesewas,
        distance_km: job.distance_km ?? null,
        stops: job.stops?.length ?? null,
        drops:
          job.stops?.map((d) => ({ address: d.address, customer: d.customer, item: d.item })) ??
          null,
      }
    : { kind: 'none' };
  const shown =
    data.kind === 'none'
      ? 'none'
      : `${data.kind}|${data.order_id}|${data.stage}|${data.expires_at}${data.stops ? `|${data.stops}` : ''}`;
  return { id: createHash('sha256').update(shown).digest('base64url').slice(0, 22), data };
}

/** A stream's key: the courier's id (their job), or `earnings:<id>` (their earnings screen). */
const EARNINGS = 'earnings:';

/** The courier's earnings as an event: its id digests what the screen shows, so only a change is sent. */
async function liveEarnings(kit: CourierKit, courierId: string): Promise<StreamMessage> {
  const [mine, paid] = await Promise.all([
    kit.deps.earnings.ofCourier(courierId),
    kit.deps.payouts?.list({ payee: `courier:${courierId}`, limit: PAYOUTS_SHOWN }) ?? [],
  ]);
  const id = shownDigest([
    mine.today_pesewas,
    mine.week_pesewas,
    mine.jobs.map((j) => [j.id, j.netted_pesewas]),
    paid.map((p) => [p.id, p.status]),
  ]);
  return { id, event: 'board', data: { board: 'earnings' } };
}

/**
 * GET /courier/events: server-sent events of the signed-in courier's own offer or job, sent when it
 * changes (woken by dispatch's committed changes on any instance) and at connection unless the
 * phone's Last-Event-ID says it has it. GET /courier/job: the same as JSON, the app's polling
 * fallback. GET /courier/events/earnings: a `board` event when the earnings screen would show
 * something else (an earning booked, a payout made or moving), on which the screen fetches itself.
 */
export function registerCourierLive(app: FastifyInstance, kit: CourierKit): void {
  const { job, jobChanges, listen } = kit.deps;
  // Keyed by courier, held by session: one read per connected courier however many of their streams are open.
  const streams = new EventStreams<string>({
    name: 'courier jobs',
    heartbeatMs: HEARTBEAT_MS,
    log: app.log,
    // A round of offers names many couriers at once: their reads go a few at a time, so the last
    // named does not wait for every read before theirs.
    load: async (keys) => {
      const loaded = await mapLimited(keys, LOADS_AT_ONCE, async (key) => {
        if (key.startsWith(EARNINGS)) return liveEarnings(kit, key.slice(EARNINGS.length));
        return job && { ...liveJob(await job(key)), event: 'job' };
      });
      const messages = new Map<string, StreamMessage>();
      for (const [i, key] of keys.entries()) {
        const message = loaded[i];
        if (message) messages.set(key, message);
      }
      return messages;
    },
    // The sessions are checked again at each heartbeat (two reads for every stream): a signed-out
    // or deactivated courier's streams end.
    stillAllowed: async (streams) => {
      const courierOf = (key: string) => key.replace(EARNINGS, '');
      const live = await kit.deps.sessions.findMany(streams.map((s) => s.holder));
      const active = await kit.deps.couriers.activeAmong(streams.map((s) => courierOf(s.key)));
      return streams.map((s) => live.has(s.holder) && active.has(courierOf(s.key)));
    },
  });
  // Earnings name their courier, payouts their payee (`courier:<id>`); a change naming none reads every screen.
  const payChanged = (changed: readonly string[] | undefined) =>
    void streams.refresh(
      changed?.map((k) => EARNINGS + k.replace(/^courier:/, '')) ??
        streams.keys().filter((k) => k.startsWith(EARNINGS)),
    );
  // Started by the first stream opened; one that failed is asked again by the next, not cached until a restart.
  // Dispatch names the couriers whose offer or job changed: only their streams read again.
  const jobsHeard =
    jobChanges && listenOnce(() => [jobChanges((couriers) => void streams.refresh(couriers))]);
  const payHeard =
    listen &&
    listenOnce(() => [
      listen(EARNINGS_CHANNEL, payChanged),
      ...(kit.deps.payouts ? [listen(PAYOUTS_CHANNEL, payChanged)] : []),
    ]);

  const open = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: (id: string) => string,
  ) => {
    const current = await kit.current(request);
    if (!current) return json(reply, 401, { error: 'Sign in again.', code: 'SIGNED_OUT' });
    if (streams.openBy(current.sessionId) >= STREAMS_PER_SESSION) {
      return json(reply.header('retry-after', '30'), 429, {
        error: `At most ${STREAMS_PER_SESSION} live connections per session: close another tab of the courier app.`,
        code: 'TOO_MANY_STREAMS',
      });
    }
    await streams.open(request, reply, key(current.courier.id), current.sessionId);
  };

  if (job && jobsHeard) {
    app.get('/courier/job', async (request, reply) => {
      const current = await kit.current(request);
      if (!current) return json(reply, 401, { error: 'Sign in again.', code: 'SIGNED_OUT' });
      const live = liveJob(await job(current.courier.id));
      return json(reply, 200, { id: live.id, ...live.data });
    });

    app.get('/courier/events', async (request, reply: FastifyReply) => {
      await jobsHeard.ready();
      return open(request, reply, (id) => id);
    });
  }

  if (payHeard) {
    app.get('/courier/events/earnings', async (request, reply: FastifyReply) => {
      await payHeard.ready();
      return open(request, reply, (id) => EARNINGS + id);
    });
  }

  app.addHook('preClose', async () => {
    streams.closeAll();
    await jobsHeard?.stop();
    await payHeard?.stop();
  });
}
