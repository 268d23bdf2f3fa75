import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COURIER_PRESENCE_CHANNEL } from '../../modules/couriers/index.ts';
import { TRACKING_CHANNEL } from '../../modules/delivery/index.ts';
import { COURIER_JOBS_CHANNEL, DISPATCH_CHANNEL } from '../../modules/dispatch/index.ts';
import { EARNINGS_CHANNEL } from '../../modules/earnings/index.ts';
import { MESSAGE_CHANGES_CHANNEL } from '../../modules/messages/index.ts';
import { PAYOUTS_CHANNEL } from '../../modules/payouts/index.ts';
import type { OperatorRole } from '../../platform/auth/actor.ts';
import { listenOnce } from '../../platform/db/listen-once.ts';
import { EventStreams, shownDigest, type StreamMessage } from '../../platform/http/event-stream.ts';
import { dispatchSnapshot, readDispatch } from './dispatch-view.ts';
import { isId } from '../../platform/ids.ts';
import {
  ALL_ROLES,
  FINANCE_ROLES,
  unlessMissing,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';

/** Event streams one operator session may hold open at once (a few tabs of boards); more answer 429. */
export const STREAMS_PER_SESSION = 6;
/** A comment line this often keeps proxies from closing a quiet stream; the session is checked again then too. */
export const HEARTBEAT_MS = 15_000;
/** Boards re-read this often whatever rang: cash and payout runs change without a channel of their own. */
export const SWEEP_MS = 30_000;

/**
 * The boards with a live stream, who may watch each (as their pages), and which committed changes
 * wake them. A board `perOrder` is one order's part of its page, its stream keyed by the order that
 * the channel's changes name.
 */
export const LIVE_BOARDS: Record<
  string,
  {
    roles: readonly OperatorRole[];
    channels: readonly string[];
    sweep: boolean;
    perOrder?: boolean;
  }
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
  // The courier pay page: earnings booked, and pay runs and their payouts moving.
  pay: { roles: ALL_ROLES, channels: [EARNINGS_CHANNEL, PAYOUTS_CHANNEL], sweep: false },
  // An order page's texts to its recipient: recorded, sent, reported by the SMS provider.
  texts: { roles: ALL_ROLES, channels: [MESSAGE_CHANGES_CHANNEL], sweep: false, perOrder: true },
};
export type LiveBoard = keyof typeof LIVE_BOARDS;

const json = (reply: FastifyReply, status: number, body: { error: string; code: string }) =>
  reply.code(status).header('cache-control', 'no-store').type('application/json').send(body);

/** The board a stream's key watches: `texts:<order>` is one order's texts, any other key a board. */
const boardOf = (key: string) => key.split(':')[0]!;

/** An order's texts as an event: its id digests what the table shows, so only a change is sent. */
async function textsEvent(kit: ConsoleKit, orderId: string): Promise<StreamMessage> {
  const texts = (await kit.deps.messages?.ofOrder(orderId)) ?? [];
  const shown = texts.map((t) => [t.id, t.status, t.sent_at, t.reported_at, t.last_error]);
  return { id: shownDigest(shown), event: 'board', data: { board: 'texts' } };
}

/** The console's streams: each key's current event (a board's, or one order's texts). */
function boardStreams(
  app: FastifyInstance,
  kit: ConsoleKit,
  tag: string,
  generation: Map<string, number>,
): EventStreams<string> {
  const { dispatch, couriers, sessions, operators } = kit.deps;
  return new EventStreams<string>({
    name: 'console boards',
    heartbeatMs: HEARTBEAT_MS,
    log: app.log,
    load: async (keys) => {
      const messages = new Map<string, StreamMessage>();
      for (const key of keys) {
        if (key === 'dispatch' && dispatch) {
          const snapshot = dispatchSnapshot(await readDispatch(dispatch, couriers.service));
          messages.set(key, { ...snapshot, event: 'dispatch' });
        } else if (LIVE_BOARDS[boardOf(key)]?.perOrder) {
          messages.set(key, await textsEvent(kit, key.slice(key.indexOf(':') + 1)));
        } else {
          const id = `${tag}-${generation.get(key) ?? 0}`;
          messages.set(key, { id, event: 'board', data: { board: key } });
        }
      }
      return messages;
    },
    // Checked at each heartbeat: a signed-out, deactivated or demoted operator's stream ends. The
    // sessions in one read; each operator (a handful) once.
    stillAllowed: async (streams) => {
      const live = await sessions.findMany(streams.map((s) => s.holder));
      const operatorOf = new Map<
        string,
        Promise<Awaited<ReturnType<typeof operators.get>> | undefined>
      >();
      return Promise.all(
        streams.map(async ({ holder, key }) => {
          const session = live.get(holder);
          if (session?.subject.kind !== 'operator') return false;
          const id = session.subject.id;
          if (!operatorOf.has(id)) operatorOf.set(id, unlessMissing(operators.get(id)));
          const operator = await operatorOf.get(id);
          const roles = LIVE_BOARDS[boardOf(key)]?.roles ?? [];
          return Boolean(
            operator?.active &&
              operator.totp_confirmed &&
              operator.roles.some((r) => roles.includes(r)),
          );
        }),
      );
    },
  });
}

/**
 * What a committed change on a channel wakes: only the streams of the boards it concerns are read
 * again (a board's generation moves on), and of an order's part only the orders it names.
 */
function waker(streams: EventStreams<string>, generation: Map<string, number>) {
  return (channel: string, changed: readonly string[] | undefined) => {
    const keys: string[] = [];
    let all = false;
    for (const [board, rule] of Object.entries(LIVE_BOARDS)) {
      if (!rule.channels.includes(channel)) continue;
      if (!rule.perOrder) {
        generation.set(board, generation.get(board)! + 1);
        keys.push(board);
      } else if (changed) keys.push(...changed.map((order) => `${board}:${order}`));
      else all = true;
    }
    void streams.refresh(all ? undefined : keys);
  };
}

/** Why this operator may not open this board's stream (its answer), or undefined when they may. */
function refusal(
  reply: FastifyReply,
  board: string,
  current: OperatorCurrent | undefined,
  openBy: (session: string) => number,
) {
  const rule = LIVE_BOARDS[board]!;
  if (!current)
    return json(reply, 401, { error: 'Sign in to the console again.', code: 'SIGNED_OUT' });
  if (!current.operator.roles.some((r) => rule.roles.includes(r))) {
    return json(reply, 403, {
      error: `Your roles (${current.operator.roles.join(', ')}) do not allow this board; it needs ${rule.roles.join(' or ')}.`,
      code: 'FORBIDDEN',
    });
  }
  if (openBy(current.sessionId) >= STREAMS_PER_SESSION) {
    return json(reply.header('retry-after', '30'), 429, {
      error: `At most ${STREAMS_PER_SESSION} live boards per session: close another console tab.`,
      code: 'TOO_MANY_STREAMS',
    });
  }
  return undefined;
}

/**
 * GET /console/events/{board}: server-sent events of a console board, authorised like its page (the
 * console session cookie and the page's roles). The dispatch board is sent its map's snapshot (an
 * id that digests it, so a resume skips what the page has); the others a `board` event each time
 * what they list may have changed, on which the page fetches itself again. GET
 * /console/events/orders/{id}/texts: the same for one order's texts, sent when they change. Woken by
 * committed changes (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite), on any instance.
 */
export function registerConsoleLive(app: FastifyInstance, kit: ConsoleKit): void {
  const { dispatch, listen } = kit.deps;
  if (!listen) return;
  // A board's generation moves on each wake; the process tag keeps one instance's ids from matching another's.
  const tag = randomBytes(6).toString('base64url');
  const generation = new Map<string, number>(Object.keys(LIVE_BOARDS).map((b) => [b, 0]));
  const streams = boardStreams(app, kit, tag, generation);
  let sweep: NodeJS.Timeout | undefined;
  const wake = waker(streams, generation);
  const channels = [...new Set(Object.values(LIVE_BOARDS).flatMap((b) => b.channels))];
  // A LISTEN that failed is asked again by the next board opened, not cached until a restart.
  const listening = listenOnce(() =>
    channels.map((channel) => listen(channel, (changed) => wake(channel, changed))),
  );
  const sweeping = () =>
    setInterval(() => {
      if (!streams.size) return;
      const swept = Object.keys(LIVE_BOARDS).filter((board) => LIVE_BOARDS[board]!.sweep);
      for (const board of swept) generation.set(board, generation.get(board)! + 1);
      void streams.refresh(swept);
    }, SWEEP_MS).unref();
  // A board this instance does not serve (no delivery, messages, cash or payouts here) has no stream either.
  const served: Record<string, unknown> = {
    dispatch,
    orders: kit.deps.orders,
    cash: kit.deps.cash,
    payouts: kit.deps.payouts,
    pay: kit.deps.earnings,
    texts: kit.deps.orders && kit.deps.messages,
  };
  const open = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    const current = await kit.current(request);
    const refused = refusal(reply, boardOf(key), current, (s) => streams.openBy(s));
    if (refused) return refused;
    sweep ??= sweeping();
    await listening.ready();
    await streams.open(request, reply, key, current!.sessionId);
  };

  app.get<{ Params: { board: string } }>('/console/events/:board', async (request, reply) => {
    const board = request.params.board;
    const rule = Object.hasOwn(LIVE_BOARDS, board) ? LIVE_BOARDS[board] : undefined;
    if (!rule || rule.perOrder || !served[board])
      return json(reply, 404, { error: 'There is no such live board.', code: 'NOT_FOUND' });
    return open(request, reply, board);
  });

  app.get<{ Params: { id: string } }>(
    '/console/events/orders/:id/texts',
    async (request, reply) => {
      const id = request.params.id;
      if (!served.texts || !isId('dlv', id))
        return json(reply, 404, { error: 'There is no such order.', code: 'NOT_FOUND' });
      return open(request, reply, `texts:${id}`);
    },
  );

  app.addHook('preClose', async () => {
    clearInterval(sweep);
    streams.closeAll();
    await listening.stop();
  });
}
