import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { EventStreams, type StreamMessage } from '../../platform/http/event-stream.ts';
import type { CourierJobView, CourierKit } from './kit.ts';
import { json } from './routes.ts';

/** Event streams one courier session may hold open at once (a phone and a spare tab); more answer 429. */
export const STREAMS_PER_SESSION = 3;
/** A comment line this often keeps proxies from closing a quiet stream; the session is checked again then too. */
export const HEARTBEAT_MS = 15_000;

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
      }
    : { kind: 'none' };
  const shown =
    data.kind === 'none'
      ? 'none'
      : `${data.kind}|${data.order_id}|${data.stage}|${data.expires_at}${data.stops ? `|${data.stops}` : ''}`;
  return { id: createHash('sha256').update(shown).digest('base64url').slice(0, 22), data };
}

/**
 * GET /courier/events: server-sent events of the signed-in courier's own offer or job, sent when it
 * changes (woken by dispatch's committed changes on any instance) and at connection unless the
 * phone's Last-Event-ID says it has it. GET /courier/job: the same as JSON, the app's polling fallback.
 */
export function registerCourierLive(app: FastifyInstance, kit: CourierKit): void {
  const { job, jobChanges } = kit.deps;
  if (!job || !jobChanges) return;
  // Keyed by courier, held by session: one read per connected courier however many of their streams are open.
  const streams = new EventStreams<string>({
    name: 'courier jobs',
    heartbeatMs: HEARTBEAT_MS,
    log: app.log,
    load: async (couriers) => {
      const messages = new Map<string, StreamMessage>();
      for (const courierId of couriers)
        messages.set(courierId, { ...liveJob(await job(courierId)), event: 'job' });
      return messages;
    },
    // The session is checked again at each heartbeat: a signed-out or deactivated courier's stream ends.
    stillAllowed: async (sessionId, courierId) =>
      Boolean(
        (await kit.deps.sessions.find(sessionId)) &&
          (await kit.deps.couriers.get(courierId)).active,
      ),
  });
  let listening: Promise<() => Promise<void>> | undefined;

  app.get('/courier/job', async (request, reply) => {
    const current = await kit.current(request);
    if (!current) return json(reply, 401, { error: 'Sign in again.', code: 'SIGNED_OUT' });
    const live = liveJob(await job(current.courier.id));
    return json(reply, 200, { id: live.id, ...live.data });
  });

  app.get('/courier/events', async (request, reply: FastifyReply) => {
    const current = await kit.current(request);
    if (!current) return json(reply, 401, { error: 'Sign in again.', code: 'SIGNED_OUT' });
    if (streams.openBy(current.sessionId) >= STREAMS_PER_SESSION) {
      return json(reply.header('retry-after', '30'), 429, {
        error: `At most ${STREAMS_PER_SESSION} live connections per session: close another tab of the courier app.`,
        code: 'TOO_MANY_STREAMS',
      });
    }
    // Dispatch names the couriers whose offer or job changed: only their streams read again.
    listening ??= jobChanges((couriers) => void streams.refresh(couriers));
    await listening;
    await streams.open(request, reply, current.courier.id, current.sessionId);
  });

  app.addHook('preClose', async () => {
    streams.closeAll();
    if (listening) await (await listening)();
  });
}
