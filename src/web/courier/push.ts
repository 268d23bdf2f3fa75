import type { FastifyInstance, FastifyReply } from 'fastify';
import { readPushSubscription } from '../../modules/couriers/index.ts';
import { hashSessionId } from '../../modules/sessions/index.ts';
import { coalescing } from '../../platform/db/notify.ts';
import { isAppError } from '../../platform/errors.ts';
import type { CourierKit } from './kit.ts';
import { appRequest, json, jsonBody } from './routes.ts';

/** The path of the session's push subscription: POST saves it, DELETE removes it. */
export const PUSH_SUBSCRIPTION_URL = '/courier/push-subscription';

/**
 * The signed-in session's push subscription (saved and removed by the app's script, with the CSRF
 * token like its actions; a session only ever touches its own), and the pushes themselves: a round
 * after each wake-up from dispatch's committed changes, from start-up on, since a phone in the
 * background holds no event stream. Rounds never overlap and their failures are only logged.
 */
export function registerCourierPush(
  app: FastifyInstance,
  kit: CourierKit,
  publicOrigin: string,
): void {
  const push = kit.deps.push;
  const jobChanges = kit.deps.jobChanges;
  if (!push || !jobChanges) return;

  const refuse = (reply: FastifyReply, r: { status: number; body: unknown }) =>
    json(reply, r.status, r.body);

  app.post(PUSH_SUBSCRIPTION_URL, async (request, reply) => {
    const checked = await appRequest(kit, request, publicOrigin);
    if ('refused' in checked) return refuse(reply, checked.refused);
    const body = jsonBody(request, 'A subscription is JSON.');
    if ('refused' in body) return refuse(reply, body.refused);
    const read = readPushSubscription(body.value, push.endpoints);
    if ('problem' in read)
      return json(reply, 400, { error: read.problem, code: 'VALIDATION_ERROR' });
    const { courier, sessionId } = checked.current;
    try {
      await push.subscriptions.save(courier.id, hashSessionId(sessionId), read.subscription);
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return json(reply, err.statusCode, { error: err.message, code: err.code });
    }
    return json(reply, 200, { result: 'subscribed' });
  });

  app.delete(PUSH_SUBSCRIPTION_URL, async (request, reply) => {
    const checked = await appRequest(kit, request, publicOrigin);
    if ('refused' in checked) return refuse(reply, checked.refused);
    const removed = await push.subscriptions.remove(hashSessionId(checked.current.sessionId));
    return json(reply, 200, { result: removed ? 'unsubscribed' : 'none' });
  });

  const wake = coalescing(
    () => push.round().catch((err: unknown) => app.log.warn({ err }, 'offer push round failed')),
    0,
  );
  let stop: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stop = await jobChanges(wake);
  });
  app.addHook('preClose', async () => {
    await stop?.();
  });
}
