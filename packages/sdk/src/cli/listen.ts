import { createServer } from 'node:http';
import type { AnyWebhookEvent } from '../types.ts';
import { verifyWebhook } from '../webhooks.ts';
import { CLI, parseNumber, str, UsageError, type Command } from './command.ts';
import { webhookSecret } from './config.ts';

function describe(event: AnyWebhookEvent): string {
  if (
    event.type === 'delivery.order.created' ||
    event.type === 'delivery.order.status_changed' ||
    event.type === 'delivery.order.cancelled'
  ) {
    const d = event.data;
    return `order ${d.order_id} (${d.order_reference}) ${d.previous_status ? `${d.previous_status} → ${d.status}` : d.status}`;
  }
  return JSON.stringify(event.data);
}

/**
 * A local receiver for a platform on this machine: point an app's (or an order's) webhook_url at
 * it. Each delivery is verified with the webhook secret (Standard Webhooks) before it is printed.
 * The platform sends staging events to a local address only when it runs with
 * WEBHOOK_LOCAL_DESTINATIONS=on; production events never come here.
 */
export const listenCommand: Command = {
  name: 'webhooks listen',
  usage: '[--port 4000] [--host 127.0.0.1] [--secret whsec_...] [--count N]',
  summary: 'Receive webhooks locally, verify their signatures and print each event',
  help: [
    'The secret defaults to PARTNER_WEBHOOK_SECRET or the one stored by configure (--from stores it).',
    'Verified deliveries answer 204; a bad signature or stale timestamp answers 400 and is reported on stderr.',
    'Stops after --count verified events, or on Ctrl-C. With --json, one event per line (NDJSON).',
    'The platform must run with WEBHOOK_LOCAL_DESTINATIONS=on to send here; only staging events are sent to local receivers.',
  ],
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    secret: { type: 'string' },
    count: { type: 'string' },
  },
  async run(ctx) {
    const secret = str(ctx, 'secret') ?? webhookSecret(ctx.io.env);
    if (!secret)
      throw new UsageError(
        `give --secret whsec_... (the app webhook secret), or store it with ${CLI} configure --webhook-secret`,
      );
    if (!secret.startsWith('whsec_')) throw new UsageError('--secret must start with whsec_');
    const port = parseNumber(str(ctx, 'port') ?? '4000', '--port', { integer: true, min: 0 });
    const host = str(ctx, 'host') ?? '127.0.0.1';
    const count =
      str(ctx, 'count') === undefined
        ? Infinity
        : parseNumber(str(ctx, 'count')!, '--count', { integer: true, min: 1 });
    let seen = 0;
    // After the last counted event: let answers in flight finish. On a signal: drop every connection.
    const stop = (force = false) => {
      server.close();
      if (force) server.closeAllConnections();
      else server.closeIdleConnections();
    };
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        try {
          // The raw bytes, exactly as received: re-serialised JSON would not verify.
          const event = verifyWebhook(secret, req.headers, Buffer.concat(chunks));
          const id = req.headers['webhook-id'];
          ctx.io.out(
            ctx.json
              ? JSON.stringify({ webhook_id: id, ...event })
              : `${event.created_at}  ${event.type.padEnd(29)}  ${event.id}  ${describe(event)}`,
          );
          const last = ++seen >= count;
          // Stop once the answer is out, dropping idle keep-alive connections so close completes.
          if (last) res.once('finish', () => stop());
          res.writeHead(204).end();
        } catch (err) {
          res
            .writeHead(400, { 'content-type': 'text/plain' })
            .end('signature verification failed\n');
          ctx.io.err(`rejected ${req.method} ${req.url}: ${(err as Error).message}`);
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as { port: number };
    ctx.io.err(`listening on http://${host}:${address.port}/ (Ctrl-C to stop)`);
    process.once('SIGINT', () => stop(true));
    process.once('SIGTERM', () => stop(true));
    await new Promise<void>((resolve) => server.on('close', resolve));
  },
};
