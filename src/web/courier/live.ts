import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CourierJobView, CourierKit } from './kit.ts';
import { json } from './routes.ts';

/** Event streams one courier session may hold open at once (a phone and a spare tab); more answer 429. */
export const STREAMS_PER_SESSION = 3;
/** A comment line this often keeps proxies from closing a quiet stream; the session is checked again then too. */
export const HEARTBEAT_MS = 15_000;
/** Our event ids are short hashes; anything else in Last-Event-ID (garbage, huge) is ignored, never an error. */
const EVENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

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
        fee_pesewas: job.sheet.fee_pesewas,
        distance_km: job.distance_km ?? null,
      }
    : { kind: 'none' };
  const shown = data.kind === 'none' ? 'none' : `${data.kind}|${data.order_id}|${data.stage}|${data.expires_at}`;
  return { id: createHash('sha256').update(shown).digest('base64url').slice(0, 22), data };
}

interface Stream {
  courierId: string;
  sessionId: string;
  lastId: string | undefined;
  write(chunk: string): void;
  end(): void;
}

/**
 * GET /courier/events: server-sent events of the signed-in courier's own offer or job, sent when it
 * changes (woken by dispatch's committed changes on any instance) and at connection unless the
 * phone's Last-Event-ID says it has it. GET /courier/job: the same as JSON, the app's polling fallback.
 */
export function registerCourierLive(app: FastifyInstance, kit: CourierKit): void {
  const { job, jobChanges } = kit.deps;
  if (!job || !jobChanges) return;
  const streams = new Set<Stream>();
  const perSession = new Map<string, number>();
  let listening: Promise<() => Promise<void>> | undefined;

  const send = async (stream: Stream, known?: ReturnType<typeof liveJob>) => {
    const live = known ?? liveJob(await job(stream.courierId));
    if (stream.lastId === live.id) return;
    stream.lastId = live.id;
    stream.write(`id: ${live.id}\nevent: job\ndata: ${JSON.stringify(live.data)}\n\n`);
  };
  // One read per connected courier however many of their streams are open; wake-ups during a pass run one more.
  let running = false;
  let again = false;
  const refresh = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const couriers = new Set([...streams].map((s) => s.courierId));
        for (const courierId of couriers) {
          const live = liveJob(await job(courierId));
          for (const s of streams) if (s.courierId === courierId) await send(s, live);
        }
      } while (again);
    } catch (err) {
      app.log.warn({ err }, 'could not refresh the couriers\' event streams');
    } finally {
      running = false;
    }
  };

  app.get('/courier/job', async (request, reply) => {
    const current = await kit.current(request);
    if (!current) return json(reply, 401, { error: 'Sign in again.', code: 'SIGNED_OUT' });
    const live = liveJob(await job(current.courier.id));
    return json(reply, 200, { id: live.id, ...live.data });
  });

  app.get('/courier/events', async (request, reply: FastifyReply) => {
    const current = await kit.current(request);
    if (!current) return json(reply, 401, { error: 'Sign in again.', code: 'SIGNED_OUT' });
    const { sessionId } = current;
    if ((perSession.get(sessionId) ?? 0) >= STREAMS_PER_SESSION) {
      return json(reply.header('retry-after', '30'), 429, { error: `At most ${STREAMS_PER_SESSION} live connections per session: close another tab of the courier app.`, code: 'TOO_MANY_STREAMS' });
    }
    listening ??= jobChanges(() => void refresh());
    const header = request.headers['last-event-id'];
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', 'x-content-type-options': 'nosniff' });
    raw.write('retry: 3000\n\n');
    let ended = false;
    const stream: Stream = {
      courierId: current.courier.id,
      sessionId,
      lastId: typeof header === 'string' && EVENT_ID.test(header) ? header : undefined,
      write: (chunk) => void (ended || raw.write(chunk)),
      end: () => {
        if (ended) return;
        ended = true;
        clearInterval(beat);
        streams.delete(stream);
        const left = (perSession.get(sessionId) ?? 1) - 1;
        if (left > 0) perSession.set(sessionId, left);
        else perSession.delete(sessionId);
        raw.end();
      },
    };
    // The session is checked again at each heartbeat: a signed-out or deactivated courier's stream ends.
    const beat = setInterval(() => {
      kit.deps.sessions
        .find(sessionId)
        .then((session) => (session ? kit.deps.couriers.get(current.courier.id) : undefined))
        .then((courier) => (courier?.active ? stream.write(': heartbeat\n\n') : stream.end()))
        .catch(() => stream.end());
    }, HEARTBEAT_MS);
    beat.unref();
    streams.add(stream);
    perSession.set(sessionId, (perSession.get(sessionId) ?? 0) + 1);
    raw.on('close', stream.end);
    await listening;
    await send(stream).catch((err: unknown) => {
      request.log.warn({ err }, 'could not send a courier their job');
      stream.end();
    });
  });

  app.addHook('preClose', async () => {
    for (const s of [...streams]) s.end();
    if (listening) await (await listening)();
  });
}
