import type { FastifyInstance } from 'fastify';
import { errors } from '../../../platform/errors.ts';
import { registerGatewayCallback } from '../../delivery/index.ts';
import type { MessagesService } from '../service.ts';

/** Hubtel's delivery statuses, as its status check and reports name them, by what they mean for us. */
const DELIVERED = new Set(['delivered', 'deliveredtohandset', 'success']);
const FAILED = new Set(['failed', 'undeliverable', 'undelivered', 'rejected', 'expired']);
const PENDING = new Set(['sent', 'submitted', 'pending', 'buffered', 'queued', 'enroute']);

function stateOf(status: string): 'delivered' | 'failed' | 'pending' {
  const s = status.toLowerCase().replace(/[^a-z]/g, '');
  if (DELIVERED.has(s)) return 'delivered';
  if (FAILED.has(s)) return 'failed';
  if (PENDING.has(s)) return 'pending';
  throw errors.validation(`Unknown Status "${status.slice(0, 32)}".`, [
    { field: 'Status', issue: 'unknown status' },
  ]);
}

const OK = JSON.stringify({ status: 'ok' });

/**
 * The SMS provider's callbacks, Hubtel-style (form-encoded; not yet verified against the live
 * service, like the sender in integrations/sms/hubtel.ts), the secret in the path
 * (SMS_CALLBACK_SECRET; unset: no route):
 * - `POST /webhooks/sms/hubtel/report/{secret}`: a delivery report, `MessageId` (the id the send
 *   answered) and `Status` (Delivered, Failed, Undeliverable, Rejected, Expired; Sent, Submitted,
 *   Pending are interim and change nothing).
 * - `POST /webhooks/sms/hubtel/inbound/{secret}`: a text a recipient sent our number, `From`, `To`,
 *   `Content`: STOP and its variants opt the number out of every later message, START back in.
 * A wrong secret answers 403, a malformed form 400 or 415, an unknown message 404, before anything
 * is written.
 */
export function registerSmsCallbacks(
  app: FastifyInstance,
  messages: MessagesService,
  secret: string | undefined,
): void {
  if (!secret) return;
  registerGatewayCallback(app, {
    url: '/webhooks/sms/hubtel/report/:secret',
    secret,
    fields: { MessageId: { max: 64 }, Status: { max: 32 }, Reason: { max: 200 } },
    required: ['MessageId', 'Status'],
    contentType: 'application/json',
    answer: async (f) => {
      await messages.report(f.MessageId, stateOf(f.Status), f.Reason || f.Status);
      return OK;
    },
  });
  registerGatewayCallback(app, {
    url: '/webhooks/sms/hubtel/inbound/:secret',
    secret,
    fields: { From: { max: 32 }, To: { max: 32 }, Content: { max: 480 } },
    required: ['From', 'Content'],
    contentType: 'application/json',
    answer: async (f) => JSON.stringify({ status: await messages.inbound(f.From, f.Content) }),
  });
}
