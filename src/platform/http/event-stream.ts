import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logger.ts';

/** One server-sent event: its id is a digest of what it shows, so a resumed stream skips what the client has. */
export interface StreamMessage {
  id: string;
  event: string;
  data: unknown;
}

/**
 * An event id that digests what a page shows (`shown`, as JSON): unchanged content has the same id,
 * so a stream sends nothing and a resumed one skips what the client has.
 */
export const shownDigest = (shown: unknown): string =>
  createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 22);

export interface EventStreamsOptions<K> {
  /** What the streams are of, in the logs. */
  name: string;
  /**
   * The current message of each key, read in one pass however many streams watch them. A key left
   * out of the answer has ended (its streams are closed); a message with `last` set ends its streams
   * once sent.
   */
  load(keys: readonly K[]): Promise<Map<K, StreamMessage & { last?: boolean }>>;
  /** A comment line this often keeps proxies from closing a quiet stream. */
  heartbeatMs: number;
  /**
   * Asked at each heartbeat about every open stream at once (one read however many are open): the
   * answer says, stream by stream, which may go on; the others end (a signed-out session, a
   * deactivated courier). A failure ends them all; their clients connect again.
   */
  stillAllowed?: (
    streams: ReadonlyArray<{ holder: string; key: K }>,
  ) => Promise<readonly boolean[]>;
  log: Logger;
}

const frame = (m: StreamMessage) =>
  `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;

/** Ids we send are short digests; anything else in Last-Event-ID (garbage, huge) is ignored, never an error. */
const EVENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface Stream<K> {
  key: K;
  holder: string;
  lastId: string | undefined;
  write(chunk: string): void;
  end(): void;
}

/**
 * Open server-sent event streams, each watching one key, refreshed together: `refresh` (called when
 * a committed change may concern them) reads the watched keys it names, or every one, once, and
 * writes to the streams whose message changed. Refreshes never overlap; wake-ups during one run one
 * more, for the keys they named.
 */
export class EventStreams<K> {
  private readonly streams = new Set<Stream<K>>();
  private readonly perHolder = new Map<string, number>();
  private running = false;
  /** One heartbeat for every stream, running while any is open. */
  private beat: NodeJS.Timeout | undefined;
  /** Keys to read on the next pass; undefined: every watched key. */
  private wanted: Set<K> | undefined = new Set();

  constructor(private readonly opts: EventStreamsOptions<K>) {}

  /** Streams open now (the benchmark and the metrics read it). */
  get size(): number {
    return this.streams.size;
  }

  /** The keys watched now, each once. */
  keys(): K[] {
    return [...new Set([...this.streams].map((s) => s.key))];
  }

  /** How many streams a holder (a session, a tracking link) has open. */
  openBy(holder: string): number {
    return this.perHolder.get(holder) ?? 0;
  }

  /** Takes over the reply as an event stream of `key`; the first message goes at once unless Last-Event-ID has it. */
  async open(request: FastifyRequest, reply: FastifyReply, key: K, holder: string): Promise<void> {
    const header = request.headers['last-event-id'];
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    raw.write('retry: 3000\n\n');
    let ended = false;
    const stream: Stream<K> = {
      key,
      holder,
      lastId: typeof header === 'string' && EVENT_ID.test(header) ? header : undefined,
      write: (chunk) => void (ended || raw.write(chunk)),
      end: () => {
        if (ended) return;
        ended = true;
        this.streams.delete(stream);
        if (this.streams.size === 0) this.stopBeat();
        const left = this.openBy(holder) - 1;
        if (left > 0) this.perHolder.set(holder, left);
        else this.perHolder.delete(holder);
        raw.end();
      },
    };
    this.streams.add(stream);
    this.beat ??= setInterval(() => void this.heartbeat(), this.opts.heartbeatMs).unref();
    this.perHolder.set(holder, this.openBy(holder) + 1);
    raw.on('close', stream.end);
    try {
      this.deliver(stream, (await this.opts.load([key])).get(key));
    } catch (err) {
      this.opts.log.warn(
        { err, streams: this.opts.name },
        'could not send a stream its first event',
      );
      stream.end();
    }
  }

  /** Reads the watched keys among `changed` (all of them without it) once and sends what changed. */
  async refresh(changed?: readonly K[]): Promise<void> {
    if (!changed) this.wanted = undefined;
    else for (const key of changed) this.wanted?.add(key);
    if (this.running) return;
    this.running = true;
    try {
      while (this.wanted === undefined || this.wanted.size > 0) {
        const wanted = this.wanted;
        this.wanted = new Set();
        const streams = [...this.streams].filter((s) => !wanted || wanted.has(s.key));
        const keys = [...new Set(streams.map((s) => s.key))];
        if (!keys.length) continue;
        const messages = await this.opts.load(keys);
        // Each message is serialised once, however many streams watch its key.
        const chunks = new Map<K, string>();
        for (const s of streams) {
          const message = messages.get(s.key);
          let chunk = chunks.get(s.key);
          if (message && chunk === undefined && s.lastId !== message.id)
            chunks.set(s.key, (chunk = frame(message)));
          this.deliver(s, message, chunk);
        }
      }
    } catch (err) {
      this.opts.log.warn({ err, streams: this.opts.name }, 'could not refresh event streams');
    } finally {
      this.running = false;
    }
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    for (const s of [...this.streams]) s.end();
    this.stopBeat();
  }

  /** A comment line to every open stream still allowed; the others end. */
  private async heartbeat(): Promise<void> {
    const streams = [...this.streams];
    const allowed = this.opts.stillAllowed;
    const answers = allowed
      ? await allowed(streams).catch(() => [] as readonly boolean[])
      : streams.map(() => true);
    streams.forEach((s, i) => (answers[i] ? s.write(': heartbeat\n\n') : s.end()));
  }

  private stopBeat(): void {
    clearInterval(this.beat);
    this.beat = undefined;
  }

  private deliver(
    stream: Stream<K>,
    message: (StreamMessage & { last?: boolean }) | undefined,
    chunk?: string,
  ): void {
    if (!message) return stream.end();
    if (stream.lastId !== message.id) {
      stream.lastId = message.id;
      stream.write(chunk ?? frame(message));
    }
    if (message.last) stream.end();
  }
}
