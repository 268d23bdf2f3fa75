import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook endpoint that records what arrives and answers with scripted statuses. */
export class Receiver {
  readonly received: Received[] = [];
  /** Statuses to answer per path, consumed in order; afterwards `fallback`. */
  readonly script = new Map<string, number[]>();
  fallback = 200;
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body });
        const queue = this.script.get(path);
        res.statusCode = queue?.shift() ?? this.fallback;
        res.end('ok');
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A TCP listener that only counts connections: the proof that the dispatcher dialled nothing. */
export class Tripwire {
  connections = 0;
  port = 0;
  private server!: NetServer;

  async start(): Promise<this> {
    this.server = createNetServer((socket) => {
      this.connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
