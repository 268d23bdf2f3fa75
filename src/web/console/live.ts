import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { COURIER_PRESENCE_CHANNEL } from '../../modules/couriers/index.ts';
import { TRACKING_CHANNEL } from '../../modules/delivery/index.ts';
import { COURIER_JOBS_CHANNEL, DISPATCH_CHANNEL } from '../../modules/dispatch/index.ts';
import type { OperatorRole } from '../../platform/auth/actor.ts';
import { EventStreams, type StreamMessage } from '../../platform/http/event-stream.ts';
import { dispatchSnapshot, readDispatch } from './dispatch-view.ts';
import { ALL_ROLES, FINANCE_ROLES, unlessMissing, type ConsoleKit } from './kit.ts';

/** Event streams one operator session may hold open at once (a few tabs of boards); more answer 429. */
export const STREAMS_PER_SESSION = 6;
/** A comment line this often keeps proxies from closing a quiet stream; the session is checked again then too. */
export const HEARTBEAT_MS = 15_000;
/** Boards re-read this often whatever rang: cash and payout runs change without a channel of their own. */
export const SWEEP_MS = 30_000;

/** The boards with a live stream, who may watch each (as their pages), and which committed changes wake them. */
export const LIVE_BOARDS: Record<
  string,
  { roles: readonly OperatorRole[]; channels: readonly string[]; sweep: boolean }
> = {
  dispatch: {
    roles: ALL_ROLES,
    channels: [DISPATCH_CHANNEL, COURIER_JOBS_CHANNEL, TRACKING_CHANNEL, COURIER_PRESENCE_CHANNEL],
    sweep: false,
  },
  // A new order wakes dispatch's channel (its job's insert), a status change the tracking one.
  orders: { roles: ALL_ROLES, channels: [DISPATCH_CHANNEL, TRACKING_CHANNEL], sweep: false },
  cash: { roles: FINANCE_ROLES, channels: [COURIER_JOBS_CHANNEL], sweep: true },
  payouts: { roles: FINANCE_ROLES, channels: [], sweep: true },
};
export type LiveBoard = keyof typeof LIVE_BOARDS;

const json = (reply: FastifyReply, status: number, body: { error: string; code: string }) =>
  reply.code(status).header('cache-control', 'no-store').type('application/json').send(body);

/**
 * GET /console/events/{board}: server-sent events of a console board, authorised like its page (the
 * console session cookie and the page's roles). The dispatch board is sent its map's snapshot (an
 * id that digests it, so a resume skips what the page has); the others a `board` event each time
 * what they list may have changed, on which the page fetches itself again. Woken by committed
 * changes (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite), on any instance.
 */
export function registerConsoleLive(app: FastifyInstance, kit: ConsoleKit): void {
  const { dispatch, listen, couriers, sessions, operators } = kit.deps;
  if (!listen) return;
  // A board's generation moves on each wake; the process tag keeps one instance's ids from matching another's.
  const tag = randomBytes(6).toString('base64url');
  const generation = new Map<string, number>(Object.keys(LIVE_BOARDS).map((b) => [b, 0]));
  const streams = new EventStreams<string>({
    name: 'console boards',
    heartbeatMs: HEARTBEAT_MS,
    log: app.log,
    load: async (boards) => {
      const messages = new Map<string, StreamMessage>();
      for (const board of boards) {
        if (board === 'dispatch' && dispatch) {
          const snapshot = dispatchSnapshot(await readDispatch(dispatch, couriers.service));
          messages.set(board, { ...snapshot, event: 'dispatch' });
        } else {
          const id = `${tag}-${generation.get(board) ?? 0}`;
          messages.set(board, { id, event: 'board', data: { board } });
        }
      }
      return messages;
    },
    // Checked at each heartbeat: a signed-out, deactivated or demoted operator's stream ends.
    stillAllowed: async (sessionId, board) => {
      const session = await sessions.find(sessionId);
      if (session?.subject.kind !== 'operator') return false;
      const operator = await unlessMissing(operators.get(session.subject.id));
      const roles = LIVE_BOARDS[board]?.roles ?? [];
      return Boolean(
        operator?.active &&
          operator.totp_confirmed &&
          operator.roles.some((r) => roles.includes(r)),
      );
    },
  });
  let listening: Promise<Array<() => Promise<void>>> | undefined;
  let sweep: NodeJS.Timeout | undefined;
  const wake = (channel: string) => {
    for (const [board, rule] of Object.entries(LIVE_BOARDS))
      if (rule.channels.includes(channel)) generation.set(board, generation.get(board)! + 1);
    void streams.refresh();
  };
  const start = () => {
    const channels = [...new Set(Object.values(LIVE_BOARDS).flatMap((b) => b.channels))];
    sweep = setInterval(() => {
      if (!streams.size) return;
      for (const [board, rule] of Object.entries(LIVE_BOARDS))
        if (rule.sweep) generation.set(board, generation.get(board)! + 1);
      void streams.refresh();
    }, SWEEP_MS);
    sweep.unref();
    return Promise.all(channels.map((channel) => listen(channel, () => wake(channel))));
  };

  app.get<{ Params: { board: string } }>('/console/events/:board', async (request, reply) => {
    const board = request.params.board;
    const rule = Object.hasOwn(LIVE_BOARDS, board) ? LIVE_BOARDS[board] : undefined;
    // A board this instance does not serve (no delivery, cash or payouts here) has no stream either.
    const served = {
      dispatch,
      orders: kit.deps.orders,
      cash: kit.deps.cash,
      payouts: kit.deps.payouts,
    };
    if (!rule || !served[board as keyof typeof served])
      return json(reply, 404, { error: 'There is no such live board.', code: 'NOT_FOUND' });
    const current = await kit.current(request);
    if (!current)
      return json(reply, 401, { error: 'Sign in to the console again.', code: 'SIGNED_OUT' });
    if (!current.operator.roles.some((r) => rule.roles.includes(r))) {
      return json(reply, 403, {
        error: `Your roles (${current.operator.roles.join(', ')}) do not allow this board; it needs ${rule.roles.join(' or ')}.`,
        code: 'FORBIDDEN',
      });
    }
    if (streams.openBy(current.sessionId) >= STREAMS_PER_SESSION) {
      return json(reply.header('retry-after', '30'), 429, {
        error: `At most ${STREAMS_PER_SESSION} live boards per session: close another console tab.`,
        code: 'TOO_MANY_STREAMS',
      });
    }
    listening ??= start();
    await listening;
    await streams.open(request, reply, board, current.sessionId);
  });

  app.addHook('preClose', async () => {
    clearInterval(sweep);
    streams.closeAll();
    if (listening) for (const stop of await listening) await stop();
  });
}
