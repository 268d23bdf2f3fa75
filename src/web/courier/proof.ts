import type { FastifyInstance } from 'fastify';
import { MAX_PROOF_BYTES } from '../../modules/proof/index.ts';
import { isAppError } from '../../platform/errors.ts';
import type { CourierKit } from './kit.ts';
import { appRequest, json } from './routes.ts';

/** The upload's path; its route answers JSON even when the body is refused before the handler. */
export const PROOF_UPLOAD_URL = '/courier/jobs/:orderId/proofs';
const KINDS = new Set(['photo', 'signature']);

/**
 * A photo or signature for the courier's job, sent by the app as the raw image bytes (the phone
 * downscales photos first). The query names its kind, the phone's id for it (a replay stores it
 * once) and when it was taken (an upload queued offline arrives late). What the bytes are is
 * decided by their magic numbers in the proof module, never by the content-type header.
 */
export function registerProofUpload(
  app: FastifyInstance,
  kit: CourierKit,
  publicOrigin: string,
): void {
  app.post(PROOF_UPLOAD_URL, { bodyLimit: MAX_PROOF_BYTES }, async (request, reply) => {
    const checked = await appRequest(kit, request, publicOrigin);
    if ('refused' in checked) return json(reply, checked.refused.status, checked.refused.body);
    const store = kit.deps.proof;
    if (!store)
      return json(reply, 404, { error: 'Jobs are not available here.', code: 'NOT_FOUND' });
    const { orderId } = request.params as { orderId: string };
    const query = request.query as Record<string, unknown>;
    if (typeof query.kind !== 'string' || !KINDS.has(query.kind))
      return json(reply, 400, {
        error: 'kind must be photo or signature.',
        code: 'VALIDATION_ERROR',
      });
    if (!Buffer.isBuffer(request.body) || request.body.length === 0)
      return json(reply, 400, {
        error: 'Send the image itself as the body.',
        code: 'VALIDATION_ERROR',
      });
    const takenAt = typeof query.taken_at === 'string' ? new Date(query.taken_at) : undefined;
    try {
      const proof = await store(checked.current.courier.id, {
        orderId,
        kind: query.kind as 'photo' | 'signature',
        bytes: request.body,
        takenAt,
        clientId: typeof query.client_id === 'string' ? query.client_id : undefined,
      });
      return json(reply, 200, { result: 'stored', proof });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return json(reply, err.statusCode, { error: err.message, code: err.code });
    }
  });
}
