/**
 * A local webhook endpoint for the bench (in the spirit of test/webhooks/receiver.ts): answers
 * 204 at once and records, per delivery, its webhook-id, arrival time (wall clock, sub-ms) and
 * the payload's created_at and order id. It does not verify signatures (that is the tests' job).
 */
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Arrival {
  webhookId: string;
  /** Wall-clock ms when the request's headers arrived. */
  at: number;
  /** Payload created_at (the event's commit-time stamp) in ms. */
  createdAt: number;
  type: string;
  orderId: string | undefined;
  path: string;
}

export const wallNow = () => performance.timeOrigin + performance.now();

export class HookReceiver {
  arrivals: Arrival[] = [];
  /** Requests whose body was not a JSON event. */
  malformed = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const at = wallNow();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.statusCode = 204;
        res.end();
        try {
          const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            type: string;
            created_at: string;
            data?: { order_id?: string };
          };
          this.arrivals.push({
            webhookId: String(req.headers['webhook-id'] ?? ''),
            at,
            createdAt: Date.parse(event.created_at),
            type: event.type,
            orderId: event.data?.order_id,
            path: req.url ?? '/',
          });
        } catch {
          this.malformed++;
        }
      });
    });
    // Many dispatcher sockets may stay open; the default keep-alive timeout (5 s) is fine.
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  on(path: string): Arrival[] {
    return this.arrivals.filter((a) => a.path === path);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
    this.server = undefined;
  }
}
