import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy a test can cut: `cut()` drops every connection and refuses new ones,
 * `restore()` forwards again on the same port. It stands between the server and PostgreSQL or Redis.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  private listen(port: number): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    return new Promise((resolve) =>
      this.server!.listen(port, '127.0.0.1', () => {
        this.port = (this.server!.address() as { port: number }).port;
        resolve();
      }),
    );
  }

  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server?.close(r));
  }

  async restore(): Promise<void> {
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
